import { randomUUID } from 'node:crypto';
import {
  apiError,
  Reply,
  validationError,
  type DocumentsService,
  type ModuleRequest,
  type ValidationIssue,
} from '@cerebro/sdk';
import type { FichaRecord, FichaRequest } from '../fichas/ficha-model.js';
import type { FichaRunner } from '../fichas/ficha-runner.js';
import type { FichaStore } from '../fichas/ficha-store.js';
import { fichaMarkdown } from '../fichas/markdown.js';
import type { SourceStore } from '../store/source-store.js';

/** Credits one ficha costs (declared on the route; given back when it fails). */
export const FICHA_COST = 5;

interface FichaBody {
  tema: string;
  campos?: (string | { nombre: string; pregunta?: string })[];
  fuentes?: string[];
  documentos?: string[];
}

export function fichaView(ficha: FichaRecord) {
  const campos = ficha.result?.campos;
  return {
    id: ficha.id,
    tema: ficha.request.tema,
    estado: ficha.estado,
    progreso: ficha.progreso,
    motivo: ficha.motivo,
    campos: ficha.request.campos?.map((c) => c.nombre) ?? null,
    fuentes: ficha.request.fuentes,
    documentos: ficha.request.documentos,
    creditos: ficha.creditos,
    resumen: campos
      ? {
          campos: campos.length,
          encontrados: campos.filter((c) => c.encontrado).length,
          sin_datos: campos.filter((c) => !c.encontrado).length,
          conflictos: campos.filter((c) => c.conflicto).length,
        }
      : null,
    creada: ficha.creada,
    inicio: ficha.inicio,
    fin: ficha.fin,
  };
}

/** What checking a ficha request reads: the space's sources and documents. */
interface FichaInputDeps {
  sources: SourceStore;
  documents: DocumentsService;
}

/**
 * The ficha a request asks for, checking what the schema cannot: the sources and documents exist in this space, and
 * field names are distinct (422 naming each problem).
 */
async function requestOf(deps: FichaInputDeps, req: ModuleRequest<FichaBody>): Promise<FichaRequest> {
  const { sources, documents } = deps;
  const body = req.body;
  const issues: ValidationIssue[] = [];
  const tema = body.tema.trim();
  if (!tema) issues.push({ loc: ['body', 'tema'], msg: 'No puede estar vacío.', type: 'string_too_short' });
  const campos = body.campos?.map((c) =>
    typeof c === 'string'
      ? { nombre: c.trim(), pregunta: null }
      : { nombre: c.nombre.trim(), pregunta: c.pregunta?.trim() || null },
  );
  const seen = new Set<string>();
  campos?.forEach((c, i) => {
    const key = c.nombre.toLowerCase();
    if (!c.nombre)
      issues.push({
        loc: ['body', 'campos', i],
        msg: 'El nombre del campo no puede estar vacío.',
        type: 'string_too_short',
      });
    else if (seen.has(key))
      issues.push({ loc: ['body', 'campos', i], msg: `Campo repetido: «${c.nombre}».`, type: 'value_error' });
    seen.add(key);
  });
  for (const [i, f] of (body.fuentes ?? []).entries()) {
    if (!(await sources.get(req.space.id, f)))
      issues.push({ loc: ['body', 'fuentes', i], msg: 'No es una fuente de este espacio.', type: 'not_found' });
  }
  for (const [i, d] of (body.documentos ?? []).entries()) {
    if (!(await documents.find(req.space.id, d)))
      issues.push({ loc: ['body', 'documentos', i], msg: 'No es un documento de este espacio.', type: 'not_found' });
  }
  if (issues.length) throw validationError(issues);
  return {
    tema,
    campos: campos ?? null,
    fuentes: [...new Set(body.fuentes ?? [])],
    documentos: [...new Set(body.documentos ?? [])],
  };
}

/**
 * `createFicha`'s refusals before the host charges it (`checks`): the request's own problems (`requestOf`), so a
 * refused ficha costs nothing and is answered 422 also on an empty pool, not 402.
 */
export function fichaChecks(deps: FichaInputDeps) {
  return {
    createFicha: async (req: ModuleRequest<FichaBody>) => {
      await requestOf(deps, req);
    },
  };
}

export function fichaHandlers(deps: FichaInputDeps & { fichas: FichaStore; runner: FichaRunner }) {
  const { fichas, runner } = deps;
  const found = async (req: ModuleRequest): Promise<FichaRecord> => {
    const ficha = await fichas.get(req.space.id, req.params.ficha!);
    if (!ficha) throw apiError('not_found', 'Ficha no encontrada en este espacio.');
    return ficha;
  };

  return {
    createFicha: async (req: ModuleRequest<FichaBody>) => {
      // Read again after the check (a source or document may have gone since): a refusal now is refunded.
      const ficha = await fichas.create(req.space.id, randomUUID(), await requestOf(deps, req), req.id, FICHA_COST);
      await runner.enqueue(ficha);
      return Reply.json(202, fichaView(ficha));
    },
    listFichas: async (req: ModuleRequest) => {
      const limite = req.query.limite as number;
      const desde = req.query.desde as number;
      const { total, fichas: list } = await fichas.page(req.space.id, limite, desde);
      return { fichas: list.map(fichaView), total, limite, desde };
    },
    getFicha: async (req: ModuleRequest) => fichaView(await found(req)),
    fichaMarkdown: async (req: ModuleRequest) => {
      const ficha = await found(req);
      if (ficha.estado !== 'lista' || !ficha.result) {
        throw apiError(
          'conflict',
          ficha.motivo
            ? `La ficha está ${ficha.estado}: ${ficha.motivo}`
            : `La ficha aún no está lista (estado: ${ficha.estado}).`,
        );
      }
      const markdown = fichaMarkdown(ficha);
      if ((req.headers.accept ?? '').includes('application/json'))
        return { ficha: fichaView(ficha), markdown, ...ficha.result };
      return Reply.send(200, markdown, 'text/markdown; charset=utf-8');
    },
  };
}
