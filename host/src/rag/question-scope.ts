import { createHash } from 'node:crypto';
import { validationError } from '@cerebro/sdk';
import type { RetrievalScope } from '../cerebro/index.js';
import type { DocumentLabelRepository } from '../storage/port/document-label-repository.js';
import { canonicalDocumentName } from './document-names.js';
import { parseTags } from './document-labels.js';

/** How a question or a search is narrowed, as its body says (`documentos`: names, `etiquetas`: tags). */
export interface Narrowing {
  documentos?: readonly string[];
  etiquetas?: readonly string[];
}

/** The documents a question may draw from, and the key the answer cache files its answer under. */
export interface QuestionScope {
  /** Null: the whole space. */
  documentIds: RetrievalScope;
  /** '' for the whole space; otherwise a digest of the narrowing as normalised (order and case do not matter). */
  cacheKey: string;
}

export const WHOLE_SPACE: QuestionScope = { documentIds: null, cacheKey: '' };

/**
 * Resolves a narrowing to document ids: the documents named in `documentos` (names that are not documents of the
 * space narrow to nothing), of those the ones carrying every tag of `etiquetas`. Malformed tags are a 422.
 */
export async function questionScope(
  labels: DocumentLabelRepository,
  documentIdByName: (name: string) => Promise<string | null>,
  space: string,
  narrowing: Narrowing,
): Promise<QuestionScope> {
  const { documentos, etiquetas } = narrowing;
  if (!documentos && !etiquetas) return WHOLE_SPACE;
  let tags: string[] = [];
  if (etiquetas) {
    const parsed = parseTags(etiquetas, ['body', 'etiquetas']);
    if ('issues' in parsed) throw validationError(parsed.issues);
    tags = parsed.tags;
  }
  const names = documentos ? [...new Set(documentos.map(canonicalDocumentName))].sort() : null;
  let ids = tags.length ? await labels.matching(space, { tags }) : null;
  if (names) {
    const found = await Promise.all(names.map(documentIdByName));
    const named = new Set(found.filter((id): id is string => id !== null));
    ids = ids ? new Set([...named].filter((id) => ids!.has(id))) : named;
  }
  const cacheKey = createHash('sha256')
    .update(JSON.stringify({ documentos: names, etiquetas: [...tags].sort() }))
    .digest('hex');
  return { documentIds: ids, cacheKey };
}
