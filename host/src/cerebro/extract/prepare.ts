// The CPU-heavy part of indexing one document, run inside a worker thread: extract, chunk, and compute index terms.
import { CerebroExtractionError, reasons, type SerializedExtractionError } from '../errors.js';
import { detectLanguage, indexTerms, type Language } from '../text/analyzer.js';
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
  passages: PreparedPassage[];
}

export type PrepareResult = { ok: true; document: PreparedDocument } | { ok: false; error: SerializedExtractionError };

/**
 * Index terms of a passage: its text, and apart its heading path, so a question naming a section finds the
 * section's passages (the heading column weighs more in BM25, as titles do in any search engine).
 */
export function passageTerms(text: string, headings: readonly string[], lang: Language): { terms: string; headingTerms: string } {
  return { terms: indexTerms(text, lang).join(' '), headingTerms: indexTerms(headings.join('\n'), lang).join(' ') };
}

export async function prepareDocument(task: PrepareTask): Promise<PrepareResult> {
  try {
    const doc = await extractFile(task.path, task.name, task.mediaType, task.timeoutMs ?? 0);
    const passages = chunkBlocks(doc.blocks, task.chunk ?? DEFAULT_CHUNK_OPTIONS);
    const sample = passages.slice(0, 40).map((p) => p.text).join('\n');
    const lang = detectLanguage(sample);
    let chars = 0;
    const prepared = passages.map((p) => {
      chars += p.text.length;
      return { ...p, ...passageTerms(p.text, p.headings, lang) };
    });
    return {
      ok: true,
      document: { lang, title: doc.title ?? null, encoding: doc.encoding ?? null, pages: doc.pages ?? null, chars, passages: prepared },
    };
  } catch (err) {
    if (err instanceof CerebroExtractionError) return { ok: false, error: { code: err.code, reason: err.reason } };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, error: { code: 'no_encontrado', reason: reasons.missing } };
    throw err;
  }
}
