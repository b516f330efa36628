import type { CerebroService, DocumentsService, Logger, PassageHit } from '@cerebro/sdk';
import { conflictOf, supportsFor, type Support } from './evidence.js';
import { proposeFields } from './field-proposer.js';
import {
  FichaFailure,
  type AssembledField,
  type CitedPassage,
  type FichaRequest,
  type FichaResult,
  type FieldRequest,
} from './ficha-model.js';
import { wordValue } from './wording.js';

const PASSAGES_PER_FIELD = 8;
const PASSAGES_FOR_PROPOSAL = 20;
/** How long a ficha waits for its documents to finish indexing before it works with what is ready. */
const INDEXING_WAIT_MS = 60_000;

export interface AssemblyDeps {
  documents: DocumentsService;
  /** With a chat endpoint configured, values are worded by it (still citing); else taken from the passages. */
  cerebro: CerebroService | null;
  log: Logger;
}

/** Numbers the passages a ficha cites, once each, in order of first citation. */
class Citations {
  readonly list: CitedPassage[] = [];
  private readonly byPassage = new Map<string, number>();

  cite(hit: PassageHit): number {
    const key = `${hit.documento_id}:${hit.pasaje}`;
    const known = this.byPassage.get(key);
    if (known) return known;
    const n = this.list.length + 1;
    this.byPassage.set(key, n);
    this.list.push({
      n,
      documento: hit.documento,
      pasaje: hit.pasaje,
      seccion: hit.seccion,
      pagina: hit.pagina,
      url: hit.origen?.url ?? null,
      puntuacion: Number(hit.puntuacion.toPrecision(4)),
      extracto: hit.texto.slice(0, 400),
    });
    return n;
  }
}

/**
 * Assembles a ficha from the space's passages: each field searched for, its value taken (or worded) from the
 * passages that hold the field's own words, every value citing them, conflicts between documents shown, and a
 * field no passage supports declared missing.
 */
export class FichaAssembler {
  constructor(private readonly deps: AssemblyDeps) {}

  /** The document names a ficha reads: those asked for plus those of the sources asked for; null = the whole space. */
  async scope(spaceId: string, request: FichaRequest): Promise<string[] | null> {
    if (request.documentos.length === 0 && request.fuentes.length === 0) return null;
    const names = new Set(request.documentos.map((d) => d.normalize('NFC')));
    for (const source of request.fuentes)
      for (const doc of await this.deps.documents.findOwn(spaceId, { fuente: source })) names.add(doc.nombre);
    return [...names];
  }

  async assemble(
    spaceId: string,
    request: FichaRequest,
    signal: AbortSignal,
    onProgress: (p: number) => void,
  ): Promise<FichaResult> {
    const scope = await this.scope(spaceId, request);
    if (scope && scope.length === 0)
      throw new FichaFailure('Las fuentes indicadas no han traído ningún documento todavía.');
    await this.deps.documents
      .idle(spaceId, { nombres: scope ?? undefined, signal, timeoutMs: INDEXING_WAIT_MS })
      .catch((err: unknown) => {
        if (signal.aborted) throw err;
        // Still indexing after the wait: the ficha uses what is ready.
      });
    const search = (query: string, limit: number) =>
      this.deps.documents.search(spaceId, query, { limite: limit, ...(scope ? { documentos: scope } : {}) });
    let fields: FieldRequest[];
    const proposed = request.campos === null;
    if (request.campos) fields = request.campos;
    else
      fields = proposeFields(request.tema, await search(request.tema, PASSAGES_FOR_PROPOSAL)).map((nombre) => ({
        nombre,
        pregunta: null,
      }));
    onProgress(0.1);
    const citations = new Citations();
    const assembled: AssembledField[] = [];
    for (const [i, field] of fields.entries()) {
      signal.throwIfAborted();
      assembled.push(await this.field(request.tema, field, search, citations, signal));
      onProgress(0.1 + (0.9 * (i + 1)) / Math.max(1, fields.length));
    }
    const documents = new Map<string, FichaResult['documentos'][number]>();
    for (const c of citations.list) {
      if (!documents.has(c.documento)) {
        const origin = (await this.deps.documents.find(spaceId, c.documento))?.origen ?? null;
        documents.set(c.documento, { nombre: c.documento, url: c.url, origen: origin });
      }
    }
    return {
      campos_propuestos: proposed,
      campos: assembled,
      fuentes: citations.list,
      documentos: [...documents.values()],
    };
  }

  private async field(
    topic: string,
    field: FieldRequest,
    search: (q: string, n: number) => Promise<PassageHit[]>,
    citations: Citations,
    signal: AbortSignal,
  ): Promise<AssembledField> {
    const question = field.pregunta ?? `${field.nombre} de ${topic}`;
    const hits = await search(field.pregunta ?? `${topic} ${field.nombre}`, PASSAGES_PER_FIELD);
    const supports = supportsFor(field.pregunta ? `${field.nombre} ${field.pregunta}` : field.nombre, topic, hits);
    const base = { nombre: field.nombre, pregunta: question };
    if (supports.length === 0) return this.missing(base, `Los documentos no dicen nada sobre «${field.nombre}».`);
    const conflict = conflictOf(supports);
    const conflicto = conflict && {
      valores: conflict.valores.map((v) => ({ valor: v.valor, citas: v.pasajes.map((h) => citations.cite(h)) })),
    };
    if (this.deps.cerebro?.generative) {
      try {
        const worded = await wordValue(this.deps.cerebro, topic, field.nombre, question, supports, signal);
        if (worded.text === null)
          return this.missing(base, `Los pasajes encontrados no dan el valor de «${field.nombre}».`);
        return {
          ...base,
          valor: worded.text,
          encontrado: true,
          motivo: null,
          citas: worded.cited.map((i) => citations.cite(supports[i]!.hit)),
          conflicto,
          redaccion: 'generativo',
        };
      } catch (err) {
        if (signal.aborted) throw err;
        this.deps.log.warn(
          { campo: field.nombre, err: (err as Error).message },
          'el modelo de chat falló: valor tomado de los pasajes',
        );
      }
    }
    return {
      ...base,
      valor: this.extractive(supports),
      encontrado: true,
      motivo: null,
      citas: supports.map((s) => citations.cite(s.hit)),
      conflicto,
      redaccion: 'extractivo',
    };
  }

  /** The best-ranked supporting sentence (the most field words among the first; the search order breaks ties). */
  private extractive(supports: readonly Support[]): string {
    const best = supports.reduce((a, b) => (b.matched > a.matched ? b : a));
    return best.sentence.length > 400 ? `${best.sentence.slice(0, 399)}…` : best.sentence;
  }

  private missing(base: { nombre: string; pregunta: string }, motivo: string): AssembledField {
    return { ...base, valor: null, encontrado: false, motivo, citas: [], conflicto: null, redaccion: 'extractivo' };
  }
}
