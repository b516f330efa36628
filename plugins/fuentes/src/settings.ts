import type { PluginConfig } from '@cerebro/sdk';
import { AddressPolicy } from '@cerebro/sdk';

/**
 * The module's settings with their defaults (environment `CEREBRO_FUENTES_<CLAVE>`, e.g.
 * `CEREBRO_FUENTES_PERMITIDOS=intranet.local,10.0.0.0/8`). Documented in the plugin's README.
 */
export const FUENTES_CONFIG = {
  /** Host names and CIDR ranges the address guard lets through (internal sites; the tests' loopback server). */
  permitidos: '',
  /** Largest page, after decompression. */
  max_bytes_pagina: 10 * 1024 * 1024,
  /** Bytes one run reads in all. */
  max_bytes_ejecucion: 200 * 1024 * 1024,
  /** Time for one request (redirects and body included). */
  max_segundos_peticion: 20,
  /** Time for one run. */
  max_minutos_ejecucion: 60,
  max_redirecciones: 5,
  /** Highest `max_paginas` a source may ask for. */
  max_paginas: 5000,
  /** Default pause between two requests to the same host. */
  pausa_ms: 1000,
  /** Longest robots.txt Crawl-delay honoured. */
  max_crawl_delay_ms: 30_000,
  /** Requests to one host at once, across every run of the process (the pause still spaces their starts). */
  concurrencia_por_host: 4,
  /** Pages one run has in hand at once, across its hosts (bounds its memory: each holds at most one page's bytes). */
  concurrencia_por_ejecucion: 8,
  /** Worker threads reading pages (HTML with Readability, sitemaps, feeds), shared by every run. */
  hilos_lectura: 2,
  /** Runs at once in each process that runs background work, across all spaces (the rest wait `en_cola`). */
  ejecuciones_simultaneas: 2,
  agente: 'CerebroFuentes/1.0',
  /** Resume in another process (or at the next start) a run a crash cut (once: cut again, it is marked fallida). */
  reanudar: true,
} as const;

export interface FuentesSettings {
  policy: AddressPolicy;
  maxPageBytes: number;
  maxRunBytes: number;
  requestTimeoutMs: number;
  maxRunMs: number;
  maxRedirects: number;
  maxPages: number;
  pauseMs: number;
  maxCrawlDelayMs: number;
  perHostConcurrency: number;
  runConcurrency: number;
  readerThreads: number;
  concurrentRuns: number;
  userAgent: string;
  resumeAfterCrash: boolean;
}

export function readSettings(config: PluginConfig): FuentesSettings {
  const positive = (key: keyof typeof FUENTES_CONFIG) => {
    const value = config.number(key);
    if (!(value > 0)) throw new Error(`La configuración ${key} de fuentes debe ser un número positivo.`);
    return value;
  };
  const count = (key: keyof typeof FUENTES_CONFIG) => {
    const value = config.number(key);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`La configuración ${key} de fuentes debe ser un número entero positivo.`);
    return value;
  };
  return {
    policy: AddressPolicy.fromSetting(config.string('permitidos')),
    maxPageBytes: positive('max_bytes_pagina'),
    maxRunBytes: positive('max_bytes_ejecucion'),
    requestTimeoutMs: positive('max_segundos_peticion') * 1000,
    maxRunMs: positive('max_minutos_ejecucion') * 60_000,
    maxRedirects: Math.max(0, config.number('max_redirecciones')),
    maxPages: positive('max_paginas'),
    pauseMs: Math.max(0, config.number('pausa_ms')),
    maxCrawlDelayMs: Math.max(0, config.number('max_crawl_delay_ms')),
    perHostConcurrency: count('concurrencia_por_host'),
    runConcurrency: count('concurrencia_por_ejecucion'),
    readerThreads: count('hilos_lectura'),
    concurrentRuns: positive('ejecuciones_simultaneas'),
    userAgent: config.string('agente'),
    resumeAfterCrash: config.boolean('reanudar'),
  };
}
