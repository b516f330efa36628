/** Kinds of source: one page, a site crawl, a sitemap, an RSS/Atom feed, a list of pages. */
export type SourceKind = 'url' | 'sitio' | 'sitemap' | 'feed' | 'lista';

/** How a source is read, as the client set it (defaults filled in at creation). */
export interface SourceSettings {
  /** Start page (url, sitio), sitemap or feed address. Null for `lista`. */
  url: string | null;
  /** Pages of a `lista`. Empty for the other kinds. */
  urls: string[];
  /** `sitio`: how many links away from the start page (0 = only the start page and the sitemap's pages). */
  profundidad: number;
  /** Most pages one run reads. */
  max_paginas: number;
  /** `sitio`: only pages whose path starts with this. */
  prefijo: string;
  /** `sitio`: true keeps the crawl on the start page's origin; false also follows its subdomains. */
  mismo_origen: boolean;
  /** Pause between two requests to the same host (robots.txt's Crawl-delay wins when longer). */
  pausa_ms: number;
}

export interface SourceRecord {
  spaceId: string;
  id: string;
  nombre: string;
  tipo: SourceKind;
  settings: SourceSettings;
  /** Relaunch every so many hours (null: only by hand). */
  cadaHoras: number | null;
  /** When the schedule launches it next (ms since the epoch), or null. */
  nextRunAt: number | null;
  creada: string;
  actualizada: string;
}

export type RunState = 'en_cola' | 'ejecutando' | 'completada' | 'cancelada' | 'fallida';
/** Who launched a run: a client, the schedule, `lanzar: true` at creation, or the restart after a crash cut one. */
export type RunTrigger = 'manual' | 'programada' | 'creacion' | 'reanudacion';

export interface RunCounts {
  /** URLs found in scope (start pages, sitemap and feed entries, links). */
  encontradas: number;
  /** Pages read (answered 2xx, or 304 unchanged). */
  leidas: number;
  nuevas: number;
  cambiadas: number;
  sin_cambios: number;
  fallidas: number;
  rechazadas_robots: number;
  rechazadas_guardia: number;
  /** Documents removed because their page disappeared. */
  eliminadas: number;
}

export const emptyCounts = (): RunCounts => ({
  encontradas: 0,
  leidas: 0,
  nuevas: 0,
  cambiadas: 0,
  sin_cambios: 0,
  fallidas: 0,
  rechazadas_robots: 0,
  rechazadas_guardia: 0,
  eliminadas: 0,
});

export interface UrlError {
  url: string;
  codigo: string;
  motivo: string;
  estado_http: number | null;
}

export interface RunRecord {
  spaceId: string;
  id: string;
  sourceId: string;
  estado: RunState;
  motivo: string | null;
  origen: RunTrigger;
  contadores: RunCounts;
  bytes: number;
  errores: UrlError[];
  erroresOmitidos: number;
  creada: string;
  inicio: string | null;
  fin: string | null;
}
