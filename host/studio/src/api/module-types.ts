// Shapes of the fuentes and landing modules' answers, taken from the OpenAPI document (see wire.ts).
import type { Item, Ok } from './wire.js';

export type Source = Ok<'/mod/fuentes/{espacio}/fuentes/{fuente}', 'get'>;
export type SourceKind = Source['tipo'];
export type SourceRun = NonNullable<Source['ultima_ejecucion']>;
export type RunState = SourceRun['estado'];
export type RunCounts = SourceRun['contadores'];
export type RunError = Item<SourceRun['errores']>;
export type SourceDeleted = Ok<'/mod/fuentes/{espacio}/fuentes/{fuente}', 'delete'>;

export type Ficha = Ok<'/mod/fuentes/{espacio}/fichas/{ficha}', 'get'>;
export type FichaState = Ficha['estado'];

// The JSON form of `GET /fichas/{ficha}/markdown` (`Accept: application/json`) is not in the OpenAPI document, which
// declares the Markdown answer only: these stay declared here until the route documents it.
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

export type Landing = Ok<'/mod/landing/{espacio}/landings/{landing}', 'get'>;
export type LandingSummary = Item<Ok<'/mod/landing/{espacio}/landings', 'get'>['landings']>;
export type LandingVersion = Item<Landing['versiones']>;
export type VersionState = LandingVersion['estado'];
export type LandingQuestion = Item<LandingVersion['preguntas']>;
export type CatalogChange = Item<Landing['cambios_catalogo']>;

/** A list answer of these modules: `{<name>: [...], total, limite, desde}`. */
export type Paged<K extends string, T> = { [key in K]: T[] } & { total: number; limite: number; desde: number };
export type LandingPublication = NonNullable<Landing['publicacion']>;
export type LandingLead = Item<Ok<'/mod/landing/{espacio}/landings/{landing}/contactos', 'get'>['contactos']>;
