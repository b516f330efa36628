import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Gauge, type Registry } from 'prom-client';
import type { Logger as PinoLogger } from 'pino';
import type { PluginGauge } from '@cerebro/sdk';
import type { Lifecycle } from '../kernel/kernel-services.js';
import type { LoadedPlugin } from '../plugins/plugin-loader.js';
import type { DiskSpaceWatch } from '../storage/disk-space.js';
import type { DocumentCount, MetricsRepository } from '../storage/port/metrics-repository.js';

export interface ScrapeSources {
  counts: MetricsRepository;
  dataDir: string;
  lifecycle: Lifecycle;
  plugins: readonly LoadedPlugin[];
  log: PinoLogger;
  /** Free space where the data folder is. */
  disk?: DiskSpaceWatch;
  /** Whether the host's data is in SQLite files (`cerebro_sqlite_bytes`); not on PostgreSQL, which has no such file. */
  sqliteFiles: boolean;
}

const PLUGIN_GAUGE_NAME = /^[a-z][a-z0-9_]*$/;

/** Size of a file, 0 when it does not exist (a WAL file between checkpoints). */
const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** A SQLite database's bytes on disk: the file and its write-ahead log. */
const databaseBytes = (file: string): number => sizeOf(file) + sizeOf(`${file}-wal`);

/**
 * Gauges computed when Prometheus scrapes, never on the request path: requests in flight, the indexing queue,
 * documents and passages per space (one grouped query over the documents table, not the passages), database sizes,
 * plugin states and each plugin's own gauges.
 */
export function registerScrapeGauges(registry: Registry, sources: ScrapeSources): void {
  const registers = [registry];
  const { counts, lifecycle } = sources;
  new Gauge({
    name: 'cerebro_peticiones_en_curso',
    help: 'Peticiones dentro del pipeline ahora mismo.',
    registers,
    collect() {
      this.set(lifecycle.requestsInFlight);
    },
  });

  // The three gauges read the same grouped rows: one query per scrape. The registry calls the collectors in order,
  // so the first one (the queue's) starts the read and the next two share it.
  let rows: Promise<DocumentCount[]> | null = null;
  const readRows = () => (rows ??= counts.documentCounts());
  new Gauge<'estado'>({
    name: 'cerebro_indexacion_cola',
    help: 'Documentos pendientes de indexar (en_cola) y en proceso (procesando), en todos los espacios.',
    labelNames: ['estado'],
    registers,
    async collect() {
      rows = null;
      const total = { queued: 0, processing: 0 };
      for (const r of await readRows())
        if (r.state === 'queued' || r.state === 'processing') total[r.state] += r.documents;
      this.set({ estado: 'en_cola' }, total.queued);
      this.set({ estado: 'procesando' }, total.processing);
    },
  });
  new Gauge<'espacio' | 'estado'>({
    name: 'cerebro_documentos',
    help: 'Documentos por espacio y estado (queued, processing, ready, failed).',
    labelNames: ['espacio', 'estado'],
    registers,
    async collect() {
      const read = await readRows();
      this.reset();
      for (const r of read) this.set({ espacio: r.space, estado: r.state }, r.documents);
    },
  });
  new Gauge<'espacio'>({
    name: 'cerebro_pasajes',
    help: 'Pasajes buscables por espacio (de los documentos listos).',
    labelNames: ['espacio'],
    registers,
    async collect() {
      const read = await readRows();
      this.reset();
      for (const r of read) if (r.state === 'ready') this.set({ espacio: r.space }, r.passages);
    },
  });

  if (sources.sqliteFiles) registerSqliteBytes(registry, sources.dataDir);

  const disk = sources.disk;
  if (disk) {
    new Gauge({
      name: 'cerebro_disco_libre_bytes',
      help: 'Bytes libres (para el servicio) en el sistema de archivos de la carpeta de datos.',
      registers,
      collect() {
        this.set(disk.read()?.free ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'cerebro_disco_total_bytes',
      help: 'Tamaño del sistema de archivos de la carpeta de datos.',
      registers,
      collect() {
        this.set(disk.read()?.total ?? Number.NaN);
      },
    });
  }

  new Gauge<'plugin' | 'version'>({
    name: 'cerebro_plugin_activo',
    help: '1 si el plugin está activo, 0 si falló al arrancar.',
    labelNames: ['plugin', 'version'],
    registers,
    collect() {
      for (const p of sources.plugins)
        this.set({ plugin: p.manifest.id, version: p.manifest.version }, p.state === 'activo' ? 1 : 0);
    },
  });

  for (const plugin of sources.plugins) {
    for (const [name, gauge] of Object.entries(plugin.metrics ?? {})) {
      registerPluginGauge(registry, plugin.manifest.id, name, gauge, sources.log);
    }
  }
}

function registerPluginGauge(
  registry: Registry,
  pluginId: string,
  name: string,
  gauge: PluginGauge,
  log: PinoLogger,
): void {
  const fullName = `cerebro_plugin_${pluginId.replace(/[^a-z0-9_]/g, '_')}_${name}`;
  if (!PLUGIN_GAUGE_NAME.test(name)) {
    log.warn(
      { plugin: pluginId, metrica: name },
      'métrica de plugin ignorada: el nombre solo admite minúsculas, dígitos y _',
    );
    return;
  }
  const labelNames = [...(gauge.labels ?? [])];
  new Gauge<string>({
    name: fullName,
    help: gauge.help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      let read: ReturnType<PluginGauge['read']>;
      try {
        read = gauge.read();
      } catch (err) {
        // NaN (not 0) so that a dashboard shows the value as unknown rather than as an idle queue.
        log.warn({ plugin: pluginId, metrica: name, err: (err as Error).message }, 'métrica de plugin no disponible');
        if (labelNames.length === 0) this.set(Number.NaN);
        return;
      }
      if (typeof read === 'number') this.set(read);
      else for (const sample of read) this.set(sample.labels, sample.value);
    },
  });
}

/** Bytes on disk of cerebro.db and of each plugin's SQLite file (file + WAL). */
function registerSqliteBytes(registry: Registry, dataDir: string): void {
  new Gauge<'base'>({
    name: 'cerebro_sqlite_bytes',
    help: 'Tamaño en disco de cada base SQLite (fichero y WAL): cerebro y la de cada plugin.',
    labelNames: ['base'],
    registers: [registry],
    collect() {
      this.reset();
      this.set({ base: 'cerebro' }, databaseBytes(join(dataDir, 'cerebro.db')));
      const pluginDir = join(dataDir, 'plugins');
      let files: string[] = [];
      try {
        files = readdirSync(pluginDir).filter((f) => f.endsWith('.db'));
      } catch {
        files = [];
      }
      for (const f of files) this.set({ base: f.slice(0, -3) }, databaseBytes(join(pluginDir, f)));
    },
  });
}
