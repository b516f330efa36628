import type { RecordedOrigin } from '@cerebro/sdk';

export type FichaState = 'en_cola' | 'generando' | 'lista' | 'fallida' | 'cancelada';

/** One field as asked: a name, and the question used to search for it (default: the name and the topic). */
export interface FieldRequest {
  nombre: string;
  pregunta: string | null;
}

export interface FichaRequest {
  tema: string;
  /** null: propose the fields from the documents. */
  campos: FieldRequest[] | null;
  fuentes: string[];
  documentos: string[];
}

/** A passage cited by a ficha: the documents it came from, with the page URL for web pages. */
export interface CitedPassage {
  n: number;
  documento: string;
  pasaje: number;
  seccion: string | null;
  pagina: number | null;
  url: string | null;
  puntuacion: number;
  extracto: string;
}

export interface AssembledField {
  nombre: string;
  pregunta: string;
  /** null: the documents do not say (never invented). */
  valor: string | null;
  encontrado: boolean;
  /** Why the value is missing, in plain words. */
  motivo: string | null;
  /** Numbers of the cited passages (`fuentes[].n`). */
  citas: number[];
  conflicto: { valores: { valor: string; citas: number[] }[] } | null;
  /** 'extractivo': sentence taken from the passage; 'generativo': worded by the chat model from the cited passages. */
  redaccion: 'extractivo' | 'generativo';
}

export interface FichaResult {
  campos_propuestos: boolean;
  campos: AssembledField[];
  fuentes: CitedPassage[];
  documentos: { nombre: string; url: string | null; origen: RecordedOrigin | null }[];
}

export interface FichaRecord {
  spaceId: string;
  id: string;
  request: FichaRequest;
  estado: FichaState;
  progreso: number;
  motivo: string | null;
  result: FichaResult | null;
  requestId: string | null;
  creditos: number;
  creada: string;
  inicio: string | null;
  fin: string | null;
}

/** A reason a ficha cannot be assembled that the client should read as is. */
export class FichaFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FichaFailure';
  }
}
