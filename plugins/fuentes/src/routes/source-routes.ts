import { randomUUID } from 'node:crypto';
import { apiError, Reply, type DocumentsService, type ModuleRequest } from '@cerebro/sdk';
import type { RunManager } from '../crawl/run-manager.js';
import type { SourceSchedule } from '../crawl/source-schedule.js';
import type { PageStore } from '../store/page-store.js';
import type { RunStore } from '../store/run-store.js';
import type { SourceRecord } from '../store/source-model.js';
import type { SourceStore } from '../store/source-store.js';
import { sourceSettingsOf, type SourceInput } from './source-input.js';
import { runView, sourceView } from './source-views.js';

export interface SourceRouteDeps {
  sources: SourceStore;
  runs: RunStore;
  pages: PageStore;
  manager: RunManager;
  schedule: SourceSchedule;
  documents: DocumentsService;
  caps: { maxPages: number; pauseMs: number };
}

/** Handlers of the source routes (contract table E). */
export function sourceHandlers(deps: SourceRouteDeps) {
  const { sources, runs, pages, manager, schedule, documents } = deps;
  const found = async (req: ModuleRequest): Promise<SourceRecord> => {
    const source = await sources.get(req.space.id, req.params.fuente!);
    if (!source) throw apiError('not_found', 'Fuente no encontrada en este espacio.');
    return source;
  };
  const view = async (source: SourceRecord) =>
    sourceView(source, await runs.last(source.spaceId, source.id), await pages.documents(source.spaceId, source.id));

  return {
    createSource: async (req: ModuleRequest<SourceInput>) => {
      const { nombre, settings } = sourceSettingsOf(req.body, deps.caps);
      const source = await sources.create({
        spaceId: req.space.id,
        id: randomUUID(),
        nombre,
        tipo: req.body.tipo,
        settings,
        cadaHoras: req.body.cada_horas ?? null,
      });
      await schedule.ensure(source);
      if (req.body.lanzar) await manager.launch(source, 'creacion');
      req.log.info({ fuente: source.id, tipo: source.tipo }, 'fuente creada');
      return Reply.json(201, await view((await sources.get(source.spaceId, source.id)) ?? source));
    },
    listSources: async (req: ModuleRequest) => {
      const limite = req.query.limite as number;
      const desde = req.query.desde as number;
      const { total, sources: list } = await sources.page(req.space.id, limite, desde);
      const fuentes = [];
      for (const source of list) fuentes.push(await view(source));
      return { fuentes, total, limite, desde };
    },
    getSource: async (req: ModuleRequest) => view(await found(req)),
    launchSource: async (req: ModuleRequest) => {
      const run = await manager.launch(await found(req), 'manual');
      return Reply.json(202, runView((await runs.get(run.spaceId, run.id)) ?? run));
    },
    cancelSource: async (req: ModuleRequest) => {
      const source = await found(req);
      const run = await manager.cancel(source.spaceId, source.id);
      if (!run) throw apiError('conflict', 'La fuente no tiene ninguna ejecución en curso.');
      return runView(run);
    },
    deleteSource: async (req: ModuleRequest) => {
      const source = await found(req);
      await schedule.forget(source.spaceId, source.id);
      await manager.cancel(source.spaceId, source.id);
      const own = await documents.findOwn(source.spaceId, { fuente: source.id });
      let removed = 0;
      if (!req.query.conservar_documentos)
        for (const doc of own) if (await documents.remove(source.spaceId, doc.nombre)) removed++;
      await pages.deleteOfSource(source.spaceId, source.id);
      await runs.deleteOfSource(source.spaceId, source.id);
      await sources.delete(source.spaceId, source.id);
      req.log.info({ fuente: source.id, documentos_eliminados: removed }, 'fuente eliminada');
      return { eliminada: source.id, documentos_eliminados: removed, documentos_conservados: own.length - removed };
    },
  };
}
