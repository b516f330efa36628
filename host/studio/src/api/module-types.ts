// Shapes of the answers of modules `fuentes` and `landing` (plugins/fuentes/README.md, plugins/landing/README.md).

export type SourceKind = 'url' | 'sitio' | 'sitemap' | 'feed' | 'lista';
export type RunState = 'en_cola' | 'ejecutando' | 'completada' | 'cancelada' | 'fallida';

export interface RunCounts {
  encontradas: number;
  leidas: number;
  nuevas: number;
  cambiadas: number;
  sin_cambios: number;
  fallidas: number;
  rechazadas_robots: number;
  rechazadas_guardia: number;
  eliminadas: number;
}

export interface RunError {
  url: string;
  codigo: string;
  motivo: string;
  estado_http?: number | null;
}

export interface SourceRun {
  id: string;
  estado: RunState;
  motivo: string | null;
  origen: 'manual' | 'programada' | 'creacion' | 'reanudacion';
  contadores: RunCounts;
  bytes: number;
  errores: RunError[];
  errores_omitidos: number;
  creada: string;
  inicio: string | null;
  fin: string | null;
}

export interface Source {
  id: string;
  nombre: string;
  tipo: SourceKind;
  url: string | null;
  urls: string[];
  profundidad?: number;
  max_paginas?: number;
  prefijo?: string;
  mismo_origen?: boolean;
  pausa_ms?: number;
  cada_horas: number | null;
  proxima_ejecucion: string | null;
  documentos: number;
  creada: string;
  actualizada: string;
  ultima_ejecucion: SourceRun | null;
}

export interface SourceDeleted {
  eliminada: string;
  documentos_eliminados: number;
  documentos_conservados: number;
}

export type FichaState = 'en_cola' | 'generando' | 'lista' | 'fallida' | 'cancelada';

export interface Ficha {
  id: string;
  tema: string;
  estado: FichaState;
  progreso: number;
  motivo: string | null;
  campos: string[] | null;
  fuentes: string[];
  documentos: string[];
  creditos: number;
  resumen: { campos: number; encontrados: number; sin_datos: number; conflictos: number } | null;
  creada: string;
  inicio: string | null;
  fin: string | null;
}

export interface FichaField {
  nombre: string;
  pregunta: string | null;
  valor: string | null;
  encontrado: boolean;
  motivo: string | null;
  citas: number[];
  conflicto: { valores: { valor: string; citas: number[] }[] } | null;
  redaccion: 'extractivo' | 'generativo';
}

export interface FichaSource {
  n: number;
  documento: string;
  pasaje?: number;
  seccion: string | null;
  pagina: number | null;
  url: string | null;
  puntuacion: number;
  extracto: string;
}

/** `GET /fichas/{ficha}/markdown` with `Accept: application/json`. */
export interface FichaContent {
  ficha: Ficha;
  markdown: string;
  campos_propuestos: boolean;
  campos: FichaField[];
  fuentes: FichaSource[];
  documentos: { nombre: string; url: string | null }[];
}

export type VersionState = 'generando' | 'faltan_datos' | 'lista' | 'cancelada' | 'fallida';

export interface LandingQuestion {
  id: string;
  pregunta: string;
  tipo: 'url' | 'contacto' | 'opcion';
  opciones?: string[];
}

export interface LandingVersion {
  numero: number;
  estado: VersionState;
  origen: 'crear' | 'refinar' | 'validar';
  instrucciones: string | null;
  preguntas: LandingQuestion[];
  motivo: string | null;
  avisos: string[];
  secciones: string[];
  titular: string | null;
  cta_texto: string | null;
  tema_color: string;
  longitud: string;
  marca: { aplicada: boolean; nombre: string | null };
  redaccion: 'plantilla' | 'modelo' | 'manual';
  bytes: number | null;
  creditos: number;
  creada: string;
  terminada: string | null;
}

export interface LandingSummary {
  id: string;
  objetivo: string;
  tema: string | null;
  creada: string;
  actualizada: string;
  version_actual: number | null;
  ultima_version: { numero: number; estado: VersionState };
}

export interface CatalogChange {
  producto: string;
  campo: 'precio' | 'stock' | 'moneda' | 'nombre' | 'retirado';
  antes: unknown;
  ahora: unknown;
}

export interface Landing extends LandingSummary {
  productos: string[];
  publico: string | null;
  cta: { texto: string | null; url: string | null } | null;
  contacto: string | null;
  idioma: 'es' | 'en';
  estado: VersionState;
  cambios_catalogo: CatalogChange[];
  versiones: LandingVersion[];
}

/** A list answer of these modules: `{<name>: [...], total, limite, desde}`. */
export type Paged<K extends string, T> = { [key in K]: T[] } & { total: number; limite: number; desde: number };
