// The landing records as the API shows them (response-schemas.ts describes them for the OpenAPI document).
import type { CatalogProduct } from '@cerebro/sdk';
import type { Landing, Version, VersionState } from './model.js';
import type { Publication } from './store/publication-store.js';

/** Where a published landing is served, relative to the server's root (the host mounts public routes there). */
export const publicPath = (spaceId: string, token: string): string =>
  `/api/pub/landing/${encodeURIComponent(spaceId)}/p/${token}`;

export function publicationView(spaceId: string, p: Publication) {
  return {
    ruta: publicPath(spaceId, p.token),
    version: p.numero,
    formulario: p.formulario,
    publicada: p.publicada,
    actualizada: p.actualizada,
  };
}

export interface CatalogChange {
  producto: string;
  campo: 'precio' | 'stock' | 'moneda' | 'nombre' | 'retirado';
  antes: unknown;
  ahora: unknown;
}

export function versionView(v: Version) {
  return {
    numero: v.numero,
    estado: v.estado,
    origen: v.origen,
    instrucciones: v.instrucciones,
    preguntas: v.preguntas,
    motivo: v.motivo,
    avisos: v.avisos,
    secciones: v.plan.secciones,
    titular: v.plan.titular,
    cta_texto: v.plan.cta_texto,
    tema_color: v.plan.tema_color,
    longitud: v.plan.longitud,
    hechos: v.hechos,
    marca: { aplicada: v.marca !== null, nombre: v.marca?.nombre ?? null },
    redaccion: v.redaccion,
    bytes: v.bytes,
    creditos: v.creditos,
    creada: v.creada,
    terminada: v.terminada,
  };
}

/** `published`: the version its public address serves, or null when it is not published. */
function summary(l: Landing, versions: readonly Version[], published: number | null) {
  const last = versions[versions.length - 1];
  const ready = [...versions].reverse().find((v) => v.estado === 'lista');
  return {
    id: l.id,
    objetivo: l.brief.objetivo,
    tema: l.brief.tema,
    creada: l.creada,
    actualizada: l.actualizada,
    version_actual: ready?.numero ?? null,
    ultima_version: { numero: last?.numero ?? 0, estado: (last?.estado ?? 'fallida') as VersionState },
    version_publicada: published,
  };
}

export function landingSummary(l: Landing, versions: readonly Version[], published: number | null) {
  return summary(l, versions, published);
}

export function landingView(
  l: Landing,
  versions: readonly Version[],
  changes: CatalogChange[],
  published: number | null,
) {
  const s = summary(l, versions, published);
  return {
    ...s,
    productos: l.brief.productos,
    publico: l.brief.publico,
    cta: l.brief.cta,
    contacto: l.brief.contacto,
    idioma: l.brief.idioma,
    estado: s.ultima_version.estado,
    cambios_catalogo: changes,
    versiones: versions.map(versionView),
  };
}

/**
 * How the catalog moved since the current version was built: the version keeps the figures it used (a price change
 * never alters it silently); the landing says what changed so the caller can refine it.
 */
export function catalogChanges(
  version: Version | undefined,
  products: readonly CatalogProduct[] | null,
): CatalogChange[] {
  if (!version || products === null) return [];
  const changes: CatalogChange[] = [];
  for (const used of version.hechos.catalogo) {
    const now = products.find((p) => p.id === used.id);
    if (!now) {
      changes.push({ producto: used.id, campo: 'retirado', antes: used.nombre, ahora: null });
      continue;
    }
    if (now.precio !== used.precio && !used.sin_precio)
      changes.push({ producto: used.id, campo: 'precio', antes: used.precio, ahora: now.precio });
    if (now.moneda !== used.moneda)
      changes.push({ producto: used.id, campo: 'moneda', antes: used.moneda, ahora: now.moneda });
    if (now.stock !== used.stock)
      changes.push({ producto: used.id, campo: 'stock', antes: used.stock, ahora: now.stock });
    if (now.nombre !== used.nombre)
      changes.push({ producto: used.id, campo: 'nombre', antes: used.nombre, ahora: now.nombre });
  }
  return changes;
}
