// The landing domain as data: what a caller asks for (the brief), the page plan a version is built from, the facts
// it used (with where they came from), and the states a version moves through. Wire names are Spanish.

import type { CatalogProduct } from '@cerebro/sdk';

/** Sections a page can have, in their default order. */
export const SECTION_IDS = [
  'hero',
  'beneficios',
  'caracteristicas',
  'precios',
  'preguntas_frecuentes',
  'cta',
  'contacto',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export const THEME_IDS = ['azul', 'verde', 'violeta', 'coral', 'oscuro', 'neutro'] as const;
export type ThemeId = (typeof THEME_IDS)[number];

export const LENGTHS = ['corta', 'media', 'larga'] as const;
export type Length = (typeof LENGTHS)[number];

export type Language = 'es' | 'en';

/** What the caller asked for in `POST /landings`, completed by the answers to `preguntas`. */
export interface Brief {
  objetivo: string;
  tema: string | null;
  /** Catalog product ids, in the order the page shows them. */
  productos: string[];
  publico: string | null;
  /** Requested sections; null = chosen from the data available. */
  secciones: SectionId[] | null;
  cta: { texto: string | null; url: string | null };
  /** Email or phone for the `contacto` section. */
  contacto: string | null;
  idioma: Language;
  tema_color: ThemeId | null;
}

/** How a version's page is laid out; `refinar` changes it and the next version is built from it. */
export interface Plan {
  secciones: SectionId[];
  /** Headline chosen by the caller; null = composed from the data. */
  titular: string | null;
  cta_texto: string | null;
  tema_color: ThemeId;
  longitud: Length;
}

/** A product as the catalog held it when the version was built (versions keep these: a later price change does not alter them). */
export interface CatalogFact extends CatalogProduct {
  /** The caller chose to show it without its price (answer `sin_precio` to a `precio:<id>` question). */
  sin_precio?: boolean;
}

export interface FactSource {
  documento: string;
  pagina: number | null;
  seccion: string | null;
}

/** A sentence from the space's documents, found by the Cerebro, and where it came from. */
export interface DocumentFact {
  uso: 'descripcion' | 'beneficios' | 'caracteristicas' | 'preguntas_frecuentes';
  /** What was asked to the Cerebro. */
  pregunta: string;
  /** How a frequently asked question reads on the page (without the subject, which the page already names). */
  titulo?: string;
  texto: string;
  fuentes: FactSource[];
}

export interface Facts {
  catalogo: CatalogFact[];
  documentos: DocumentFact[];
}

/** The brand's voice when it applied to a version (`marca` module enabled and brand `activo`). */
export interface Voice {
  nombre: string;
  tono: string[];
  rasgos: string[];
  /** Emojis the page must carry, and those it may use. */
  emojis_obligatorios: string[];
  emojis_permitidos: string[];
}

export type QuestionKind = 'url' | 'contacto' | 'opcion';

/** Something the version needs before it can be built; answered through `completar`. */
export interface Question {
  id: string;
  pregunta: string;
  tipo: QuestionKind;
  /** For `opcion`: the accepted answers. */
  opciones?: string[];
}

export const VERSION_STATES = ['generando', 'faltan_datos', 'lista', 'cancelada', 'fallida'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

export type VersionOrigin = 'crear' | 'refinar' | 'validar';

export interface Version {
  numero: number;
  estado: VersionState;
  origen: VersionOrigin;
  instrucciones: string | null;
  /** `instrucciones` are free text for the model to translate into the instruction set before building. */
  traducir?: boolean;
  preguntas: Question[];
  /** Answers given so far to questions about the catalog (`omitir`, `sin_precio`, `reintentar`) by question id. */
  respuestas: Record<string, string>;
  motivo: string | null;
  avisos: string[];
  plan: Plan;
  hechos: Facts;
  marca: Voice | null;
  redaccion: 'plantilla' | 'modelo' | 'manual' | null;
  bytes: number | null;
  creditos: number;
  peticion: string;
  creada: string;
  terminada: string | null;
}

export interface Landing {
  id: string;
  espacio: string;
  brief: Brief;
  creada: string;
  actualizada: string;
}
