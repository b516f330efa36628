import { validationError, type ValidationIssue } from '@cerebro/sdk';
import type { SourceKind, SourceSettings } from '../store/source-model.js';

export interface SourceInput {
  tipo: SourceKind;
  nombre?: string;
  url?: string;
  urls?: string[];
  profundidad?: number;
  max_paginas?: number;
  prefijo?: string;
  mismo_origen?: boolean;
  pausa_ms?: number;
  cada_horas?: number | null;
  lanzar?: boolean;
}

/** Fields that only some kinds read; sent with another kind they are refused instead of silently ignored. */
const ONLY_FOR: Record<string, SourceKind[]> = {
  urls: ['lista'],
  profundidad: ['sitio'],
  prefijo: ['sitio'],
  mismo_origen: ['sitio'],
  url: ['url', 'sitio', 'sitemap', 'feed'],
};

function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'No es una URL válida.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Solo se admiten direcciones http y https.';
  if (url.username || url.password) return 'La dirección no puede llevar usuario ni contraseña.';
  return null;
}

/**
 * The settings of a new source from a body the host already checked against SOURCE_CREATE_SCHEMA: the rules
 * that depend on the kind, the operator's page cap, and the defaults. Throws 422 naming every problem.
 */
export function sourceSettingsOf(
  body: SourceInput,
  caps: { maxPages: number; pauseMs: number },
): { nombre: string; settings: SourceSettings } {
  const issues: ValidationIssue[] = [];
  for (const [field, kinds] of Object.entries(ONLY_FOR)) {
    if (field in body && !kinds.includes(body.tipo))
      issues.push({ loc: ['body', field], msg: `No se usa con tipo "${body.tipo}".`, type: 'extra_forbidden' });
  }
  if (body.tipo === 'lista') {
    if (!body.urls) issues.push({ loc: ['body', 'urls'], msg: 'Obligatorio con tipo "lista".', type: 'missing' });
    body.urls?.forEach((u, i) => {
      const p = urlProblem(u);
      if (p) issues.push({ loc: ['body', 'urls', i], msg: p, type: 'url_parsing' });
    });
  } else if (body.url === undefined) {
    issues.push({ loc: ['body', 'url'], msg: `Obligatorio con tipo "${body.tipo}".`, type: 'missing' });
  } else {
    const p = urlProblem(body.url);
    if (p) issues.push({ loc: ['body', 'url'], msg: p, type: 'url_parsing' });
  }
  const maxPages = body.max_paginas ?? Math.min(100, caps.maxPages);
  if (maxPages > caps.maxPages)
    issues.push({
      loc: ['body', 'max_paginas'],
      msg: `Como máximo ${caps.maxPages} (configuración del servidor).`,
      type: 'less_than_equal',
    });
  if (issues.length) throw validationError(issues);
  const urls = body.tipo === 'lista' ? [...new Set(body.urls!.map((u) => new URL(u).href))] : [];
  const url = body.url === undefined ? null : new URL(body.url).href;
  return {
    nombre: body.nombre?.trim() || url || `Lista de ${urls.length} páginas`,
    settings: {
      url,
      urls,
      profundidad: body.profundidad ?? 2,
      max_paginas: maxPages,
      prefijo: body.prefijo ?? '/',
      mismo_origen: body.mismo_origen ?? true,
      pausa_ms: body.pausa_ms ?? caps.pauseMs,
    },
  };
}
