// The CPU-heavy part of indexing one document, run inside a worker thread: extract, chunk, and compute index terms.
import { CerebroExtractionError, reasons, type SerializedExtractionError } from '../errors.js';
import { detectLanguage, indexTerms, passageLanguage, type Language } from '../text/analyzer.js';
import { chunkBlocks, DEFAULT_CHUNK_OPTIONS, type ChunkOptions } from '../text/chunker.js';
import { extractFile } from './extract.js';

export interface PrepareTask {
  path: string;
  name: string;
  mediaType?: string;
  chunk?: ChunkOptions;
  /** Time limit for external parsers (pdftotext), so a stuck child process is killed with the job. */
  timeoutMs?: number;
}

export interface PreparedPassage {
  ord: number;
  text: string;
  page: number | null;
  headings: string[];
  /** Space-separated index terms of the text, ready for the full-text index. */
  terms: string;
  /** Space-separated index terms of the heading path (a separate, heavier-weighted column). */
  headingTerms: string;
}

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

/**
 * Index terms of a passage: its text, and apart its heading path, so a question naming a section finds the
 * section's passages (the heading column weighs more in BM25, as titles do in any search engine).
 */
export function passageTerms(text: string, headings: readonly string[], lang: Language, headingLang: Language = lang): { terms: string; headingTerms: string } {
  return { terms: indexTerms(text, lang).join(' '), headingTerms: indexTerms(headings.join('\n'), headingLang).join(' ') };
}

/** Extraction and chunking, in a function of its own so the extracted blocks are garbage once it returns. */
async function chunkedDocument(task: PrepareTask) {
  const doc = await extractFile(task.path, task.name, task.mediaType, task.timeoutMs ?? 0);
  return {
    title: doc.title ?? null, encoding: doc.encoding ?? null, pages: doc.pages ?? null,
    passages: chunkBlocks(doc.blocks, task.chunk ?? DEFAULT_CHUNK_OPTIONS),
  };
}

/**
 * Extracts, chunks and analyses one document. With `emit`, passages are handed over in batches of PASSAGE_BATCH as
 * they are analysed and not kept, so a 25 MB document never exists twice over in memory; without it they come back
 * in the result.
 */
export async function prepareDocument(task: PrepareTask, emit?: (batch: PreparedPassage[]) => void): Promise<PrepareResult> {
  try {
    const { passages, ...meta } = await chunkedDocument(task);
    const sample = passages.slice(0, 40).map((p) => p.text).join('\n');
    const lang = detectLanguage(sample);
    const passageCount = passages.length;
    const kept: PreparedPassage[] = [];
    let batch: PreparedPassage[] = [];
    let chars = 0;
    for (let i = 0; i < passageCount; i++) {
      const p = passages[i]!;
      chars += p.text.length;
      // Headings keep the document's language: a partly translated manual translates its headings first.
      const prepared = { ...p, ...passageTerms(p.text, p.headings, passageLanguage(p.text, lang), lang) };
      if (!emit) {
        kept.push(prepared);
        continue;
      }
      (passages as (typeof p | undefined)[])[i] = undefined; // let the text go once its batch is sent
      batch.push(prepared);
      if (batch.length === PASSAGE_BATCH) {
        emit(batch);
        batch = [];
      }
    }
    if (emit && batch.length > 0) emit(batch);
    return { ok: true, document: { lang, ...meta, chars, passageCount, passages: kept } };
  } catch (err) {
    if (err instanceof CerebroExtractionError) return { ok: false, error: { code: err.code, reason: err.reason } };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, error: { code: 'no_encontrado', reason: reasons.missing } };
    throw err;
  }
}
