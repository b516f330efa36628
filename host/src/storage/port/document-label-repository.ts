import { createToken } from '@cerebro/sdk';

export type LabelValue = string | number | boolean;

/** A document's `etiquetas` (normalised tags) and `metadatos` (key → text, number or boolean), as stored. */
export interface StoredLabels {
  readonly tags: readonly string[];
  readonly metadata: Readonly<Record<string, LabelValue>>;
}

/** Which documents a list or a question keeps: all of `tags`, and every key of `metadata` equal to its value. */
export interface LabelFilter {
  tags?: readonly string[];
  /** Compared with its JSON type: the number 3 and the text "3" differ. */
  metadata?: Readonly<Record<string, LabelValue>>;
}

/**
 * Where document labels are kept. Each method is one statement; a document without labels has no row (`put` of
 * empty labels removes it), and the rows go with their document.
 */
export interface DocumentLabelRepository {
  /** A document's labels, or null when it has none. */
  get(space: string, documentId: string): Promise<StoredLabels | null>;
  /** The labels of several documents at once (those without labels are absent from the map). */
  labelsOf(space: string, documentIds: readonly string[]): Promise<Map<string, StoredLabels>>;
  put(space: string, documentId: string, labels: StoredLabels, at: string): Promise<void>;
  /** The ids of a page of the space's documents that pass the filter, oldest first (then by name), and how many pass. */
  page(
    space: string,
    filter: LabelFilter,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; ids: string[] }>;
  /** The ids of every document of the space that passes the filter. */
  matching(space: string, filter: LabelFilter): Promise<Set<string>>;
}

export const DocumentLabelRepositoryToken = createToken<DocumentLabelRepository>('host:document-label-repository');
