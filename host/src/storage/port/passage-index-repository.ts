import { createToken } from '@cerebro/sdk';
import type { JobPassageSteps, JobRun } from './document-job-repository.js';
import type { VectorRepository } from './vector-repository.js';

/** A searchable passage as the engine reads it back. */
export interface PassageRecord {
  id: number;
  documentId: string;
  documentName: string;
  ord: number;
  page: number | null;
  headings: string[];
  text: string;
}

/** A passage as the document viewer shows it: its place in the document and whether OCR read its text. */
export interface DocumentPassage {
  id: number;
  ord: number;
  page: number | null;
  headings: string[];
  text: string;
  /** Read with OCR (a scanned PDF page, an image); false for passages indexed before OCR was recorded. */
  ocr: boolean;
}

/** A page of a document's passages, in order, and how many searchable passages the document has. */
export interface DocumentPassagePage {
  total: number;
  passages: DocumentPassage[];
}

/** A passage as the engine indexes it: its text and place, and its analysed terms per weighted column. */
export interface IndexedPassage {
  ord: number;
  text: string;
  page: number | null;
  headings: string[];
  /** Its text was read with OCR (absent: it was not). */
  ocr?: boolean;
  /** Space-separated index terms of the text, ready for the full-text index. */
  terms: string;
  /** Space-separated index terms of the heading path (a separate, heavier-weighted column). */
  headingTerms: string;
}

/** A passage of an indexing run, as the embedder reads it. */
export interface RunPassage {
  id: number;
  ord: number;
  headings: string[];
  text: string;
}

/**
 * The full-text part of one search, as data (the engine plans it: cerebro/index/passage-index.ts): the conjunctive
 * match (every question word; null with fewer than two words), then, when it has fewer than k rows, one match per
 * question word (`each`), each taking its word's best `wordDepth` passages. Expressions are FTS5 MATCH expressions
 * of the engine's one shape (cerebro/index/fts-query.ts); every backend reads them.
 */
export interface MatchPlan {
  all: string | null;
  each: string[];
  k: number;
  /** Rows the conjunctive match takes. */
  depth: number;
  /** Rows each word's match takes. */
  wordDepth: number;
  /** The space's passages when planned: a backend may match a small space on the calling thread. */
  spacePassages: number;
}

/** A candidate of a match: the passage and FTS5's rank (its negated BM25: lower is better). */
export interface MatchedRow {
  id: number;
  rank: number;
}

/** Where a MatchPlan runs. */
export interface PlanMatcher {
  match(plan: MatchPlan): Promise<MatchedRow[]>;
}

export interface SpaceStats {
  documents: number;
  ready: number;
  passages: number;
  chars: number;
}

/**
 * The reads a search makes: candidates, passages and the statistics BM25 and the relevance decision weigh words by.
 * Every count is FTS5's (the PostgreSQL index keeps the same postings and totals), so both backends rank alike.
 */
export interface PassageSearchRepository extends PlanMatcher {
  /**
   * Rows of the plan: the conjunctive match's, then (when fewer than k) each word's taken in turn (the engine's
   * `mergeWordMatches`), each match ranked by FTS5's `bm25(0, 2, 1)` over the whole index, hidden passages left out.
   */
  match(plan: MatchPlan): Promise<MatchedRow[]>;
  /** The searchable passages of the space among `ids`, in the order of `ids` (hidden or another space's: left out). */
  passages(space: string, ids: readonly number[]): Promise<PassageRecord[]>;
  /** A version every change of searchable passages bumps, from any process: the engine's caches trust it. */
  contentVersion(): Promise<number>;
  /** Searchable passages of the space (hidden ones left out). */
  spacePassages(space: string): Promise<number>;
  /** Passages of the whole index (every space). */
  indexPassages(): Promise<number>;
  /** In how many passages of the whole index a term occurs (heading or text). */
  termPassages(term: string): Promise<number>;
  /** In how many searchable passages of the space a term occurs, counted up to `cap` (hidden ones left out). */
  spaceTermPassages(space: string, term: string, cap: number): Promise<number>;
  /**
   * Up to `limit` of the space's searchable passages, spread evenly over the order they were stored in (every
   * `ceil(n / limit)`-th by id), to estimate their mean length: the same ones for the same passages, whatever the
   * documents' ids (random) or whether hidden passages wait for the purge.
   */
  lengthSample(space: string, limit: number): Promise<{ text: string; headings: string[] }[]>;
  /** Passages of the space's ready documents per language (documents without a language left out). */
  languagePassages(space: string): Promise<{ lang: string; passages: number }[]>;
  /** Documents, ready ones, passages and characters of the space. */
  stats(space: string): Promise<SpaceStats>;
}

/**
 * The writes of indexing. A run's passages are stored hidden and made searchable by the job's swap, which commits
 * with the document's state change inside the document repository's transaction (`jobSteps`).
 */
export interface PassageWriteRepository {
  /** Replaces every passage of a document at once (tools and tests; indexing goes through runs). Returns the ids. */
  replaceDocument(space: string, documentId: string, passages: readonly IndexedPassage[]): Promise<number[]>;
  /** Stores passages of a run, hidden from searches until the swap, all or nothing. Returns their ids in order. */
  addHidden(run: JobRun, passages: readonly IndexedPassage[]): Promise<number[]>;
  /** Up to `limit` passages of a run after `afterOrd`, in order. */
  runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]>;
  /** A run that will not be swapped in: its passages wait for the purge. */
  abandonRun(run: JobRun): Promise<void>;
  /**
   * Deletes up to `limit` passages waiting for the purge, with their vectors in `vectors` (null: none stored), all or
   * nothing. Returns their ids; fewer than `limit` means nothing is left.
   */
  purge(limit: number, vectors: VectorRepository | null): Promise<number[]>;
  /** Ids of a document's passages, hidden ones too. */
  passageIds(space: string, documentId: string): Promise<number[]>;
  /**
   * The passage changes a job's transaction makes, for the same backend's document repository to run inside its
   * transactions (document-job-repository.ts); a document deleted at once takes its vectors in `vectors` with it.
   */
  jobSteps(vectors: VectorRepository | null): JobPassageSteps;
}

/**
 * How a backend searches, for `GET /api/health` (`cerebro.indice_pasajes`, `cerebro.busqueda_vectores`): the
 * full-text index, and where passage vectors are compared (inside the database, or exactly in the engine).
 */
export interface PassageSearchKind {
  index: 'sqlite_fts5' | 'postgresql_bm25';
  vectors: 'sqlite_vec' | 'pgvector' | 'exacta_en_el_motor';
}

/** What the document viewer reads (`GET /rag/{espacio}/documents/{archivo}/pasajes`). */
export interface DocumentPassageReads {
  /**
   * Up to `limit` of a document's searchable passages after the first `offset`, in document order (hidden ones
   * left out: a run not swapped in yet, or passages waiting for the purge), with the count of all of them, read in
   * one snapshot. Another space's document has none.
   */
  documentPassages(space: string, documentId: string, offset: number, limit: number): Promise<DocumentPassagePage>;
}

/** The engine's passage index: what a search reads and what indexing writes. */
export interface PassageIndexRepository extends PassageSearchRepository, PassageWriteRepository, DocumentPassageReads {
  /** How this backend searches (asked once, at start). */
  searchKind(): Promise<PassageSearchKind>;
  /** Releases what the repository holds besides the database (search threads). */
  close(): Promise<void>;
}

export const PassageIndexRepositoryToken = createToken<PassageIndexRepository>('host:passage-index-repository');
