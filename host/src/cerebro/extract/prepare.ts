// The CPU-heavy part of indexing one document, run inside a worker thread: extract, chunk, and compute index terms.
import { CerebroExtractionError, reasons, type SerializedExtractionError } from '../errors.js';
import {
  detectLanguage,
  languageSignals,
  mayBeOtherLanguage,
  passageLanguage,
  passageNeedsIdentifier,
  type Language,
} from '../text/analyzer.js';
import { loadLanguageIdentifier, type IdentifyLanguage } from '../text/language-identifier.js';
import { passageTerms } from './passage-terms.js';
import { DEFAULT_CHUNK_OPTIONS, type ChunkOptions } from '../text/chunker.js';
import { chunkInWindows, releasing } from './chunk-windows.js';
import { extractFile, formatOf } from './extract.js';
import { inJob } from './job-scope.js';
import { openPdf } from './pdf.js';
import { streamCsv } from './csv-stream.js';
import { streamPlainText } from './text-stream.js';
import type { TextBlock } from './types.js';
import type { IndexedPassage } from '../../storage/port/passage-index-repository.js';

export { passageTerms } from './passage-terms.js';

export interface PrepareTask {
  /** The document's file; empty when `content` holds its bytes. */
  path: string;
  /** The document's bytes, for a format read whole (`readsWhole`) whose original is kept in the database. */
  content?: Uint8Array;
  name: string;
  mediaType?: string;
  chunk?: ChunkOptions;
  /**
   * The job's time limit: external parsers (pdftotext, tesseract) each get their own limit, never past what is left
   * of this (extract/job-scope.ts).
   */
  timeoutMs?: number;
}

/** A passage ready for the passage index: its text, place and analysed terms (the storage port's shape). */
export type PreparedPassage = IndexedPassage;

export interface PreparedDocument {
  lang: Language;
  title: string | null;
  encoding: string | null;
  pages: number | null;
  chars: number;
  passageCount: number;
  /** Every passage, in order; empty when they were streamed to `emit` instead. */
  passages: PreparedPassage[];
}

export type PrepareResult = { ok: true; document: PreparedDocument } | { ok: false; error: SerializedExtractionError };

/** Passages per batch when streaming: small enough to keep memory flat, large enough to amortise a message. */
export const PASSAGE_BATCH = 256;

interface DocumentMeta {
  title: string | null;
  encoding: string | null;
  pages: number | null;
}

/**
 * The document's blocks and what it says about itself. Plain text and CSV are read in pieces (text-stream.ts,
 * csv-stream.ts); other formats
 * are extracted whole, as their parsers need, and their blocks released as they are chunked.
 */
async function documentBlocks(
  task: PrepareTask,
): Promise<{ meta: DocumentMeta; blocks: Iterable<TextBlock> | AsyncIterable<TextBlock> }> {
  const format = formatOf(task.name, task.mediaType);
  if (format === 'text' || format === 'csv') {
    const text = await (format === 'text' ? streamPlainText(task.path) : streamCsv(task.path));
    return { meta: { title: null, encoding: text.encoding, pages: null }, blocks: text.blocks };
  }
  if (format === 'pdf') {
    // Read a range of pages at a time (pdf.ts): a 3,000-page PDF's text never exists whole.
    const pdf = await openPdf(task.path);
    return { meta: { title: null, encoding: null, pages: pdf.pages }, blocks: pdf.blocks };
  }
  const doc = await extractFile(task.path, task.name, task.mediaType, task.timeoutMs ?? 0, task.content);
  return {
    meta: { title: doc.title ?? null, encoding: doc.encoding ?? null, pages: doc.pages ?? null },
    blocks: releasing(doc.blocks),
  };
}

/**
 * Extracts, chunks and analyses one document. The blocks are chunked a window at a time (chunk-windows.ts) and
 * each window's passages analysed and, with `emit`, handed over in batches of PASSAGE_BATCH and dropped, so a
 * 25 MB document's text, passages and index terms never exist all at once; without `emit` they come back in the
 * result.
 */
export function prepareDocument(
  task: PrepareTask,
  emit?: (batch: PreparedPassage[]) => void,
  /** Called after each window's passages were handed over (the worker collects garbage there). */
  afterWindow?: () => void,
): Promise<PrepareResult> {
  return inJob({ timeoutMs: task.timeoutMs ?? 0 }, () => prepareInJob(task, emit, afterWindow));
}

async function prepareInJob(
  task: PrepareTask,
  emit?: (batch: PreparedPassage[]) => void,
  afterWindow?: () => void,
): Promise<PrepareResult> {
  try {
    const { meta, blocks } = await documentBlocks(task);
    const windows = chunkInWindows(blocks, task.chunk ?? DEFAULT_CHUNK_OPTIONS);
    let lang: Language | null = null;
    // The general identifier, loaded the first time a text's function words cannot place it (analyzer.ts).
    let identify: IdentifyLanguage | undefined;
    let passageCount = 0;
    let chars = 0;
    const kept: PreparedPassage[] = [];
    let batch: PreparedPassage[] = [];
    for await (const passages of windows) {
      // The language of the document's first passages, as read from the first window (which holds at least 40
      // passages unless the document has fewer).
      if (lang === null) {
        const sample = passages
          .slice(0, 40)
          .map((p) => p.text)
          .join('\n');
        if (mayBeOtherLanguage(languageSignals(sample))) identify ??= await loadLanguageIdentifier();
        lang = detectLanguage(sample, identify);
      }
      for (const p of passages) {
        chars += p.text.length;
        const signals = languageSignals(p.text);
        if (!identify && passageNeedsIdentifier(signals, lang)) identify = await loadLanguageIdentifier();
        // Headings keep the document's language: a partly translated manual translates its headings first.
        const prepared = {
          ...p,
          ...passageTerms(p.text, p.headings, passageLanguage(p.text, lang, identify, signals), lang),
        };
        if (!emit) {
          kept.push(prepared);
          continue;
        }
        batch.push(prepared);
        if (batch.length === PASSAGE_BATCH) {
          emit(batch);
          batch = [];
        }
      }
      passageCount += passages.length;
      afterWindow?.();
    }
    if (emit && batch.length > 0) emit(batch);
    return { ok: true, document: { lang: lang ?? detectLanguage(''), ...meta, chars, passageCount, passages: kept } };
  } catch (err) {
    if (err instanceof CerebroExtractionError) return { ok: false, error: { code: err.code, reason: err.reason } };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, error: { code: 'no_encontrado', reason: reasons.missing } };
    throw err;
  }
}
