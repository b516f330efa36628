import { validationError, type QueryValue } from '@cerebro/sdk';
import {
  metadataSizeIssue,
  parseMetadata,
  parseTags,
  splitTags,
  type DocumentLabels,
  type Metadata,
} from './document-labels.js';
import type { LabelFilter } from '../storage/port/document-label-repository.js';

/** Documents' labels as the routes receive them: upload fields, a PATCH body, list filters. A bad one is a 422. */

type Loc = (string | number)[];

function tagsOf(raw: readonly unknown[], loc: Loc): string[] {
  const parsed = parseTags(raw, loc);
  if ('issues' in parsed) throw validationError(parsed.issues);
  return parsed.tags;
}

function metadataOf(raw: unknown, loc: Loc, removals: boolean) {
  const parsed = parseMetadata(raw, loc, removals);
  if ('issues' in parsed) throw validationError(parsed.issues);
  return parsed;
}

function jsonOf(text: string, loc: Loc): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ loc, msg: 'Debe ser un objeto JSON.', type: 'json_invalid' }]);
  }
}

function checkedSize(metadata: Metadata, loc: Loc): Metadata {
  const issue = metadataSizeIssue(metadata, loc);
  if (issue) throw validationError([issue]);
  return metadata;
}

/**
 * The labels of an upload's multipart fields `etiquetas` (comma list or JSON array) and `metadatos` (a JSON
 * object), for every file of the request; undefined when neither was sent (a replaced document keeps its own).
 */
export function uploadLabels(fields: Readonly<Record<string, string>>): DocumentLabels | undefined {
  const hasTags = Object.hasOwn(fields, 'etiquetas');
  const hasMetadata = Object.hasOwn(fields, 'metadatos');
  if (!hasTags && !hasMetadata) return undefined;
  const tags = hasTags ? tagsOf(splitTags(fields.etiquetas!), ['body', 'etiquetas']) : [];
  const metadata = hasMetadata
    ? checkedSize(metadataOf(jsonOf(fields.metadatos!, ['body', 'metadatos']), ['body', 'metadatos'], false).metadata, [
        'body',
        'metadatos',
      ])
    : {};
  return { tags, metadata };
}

/** A document's labels after a PATCH: `etiquetas` replaces, `metadatos` merges (null removes a key). */
export function patchedLabels(
  current: DocumentLabels,
  body: { etiquetas?: readonly string[]; metadatos?: Record<string, unknown> },
): DocumentLabels {
  const tags = body.etiquetas ? tagsOf(body.etiquetas, ['body', 'etiquetas']) : current.tags;
  if (!body.metadatos) return { tags, metadata: current.metadata };
  const { metadata, removed } = metadataOf(body.metadatos, ['body', 'metadatos'], true);
  const merged: Record<string, Metadata[string]> = { ...current.metadata, ...metadata };
  for (const key of removed) delete merged[key];
  return { tags, metadata: checkedSize(merged, ['body', 'metadatos']) };
}

/** The documents list's `?etiquetas=` and `?metadatos=` as a filter. */
export function listFilter(query: Readonly<Record<string, QueryValue>>): LabelFilter {
  const filter: { tags?: string[]; metadata?: Metadata } = {};
  if (typeof query.etiquetas === 'string') filter.tags = tagsOf(splitTags(query.etiquetas), ['query', 'etiquetas']);
  if (typeof query.metadatos === 'string')
    filter.metadata = metadataOf(
      jsonOf(query.metadatos, ['query', 'metadatos']),
      ['query', 'metadatos'],
      false,
    ).metadata;
  return filter;
}
