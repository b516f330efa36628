import type { PreparedPassage } from '../extract/prepare.js';

/** Where analysis starts and ends on the document's 0–1 progress (extraction starts at 0.05, storing ends at 1). */
export const ANALYSIS_START = 0.05;
export const ANALYSIS_END = 0.6;
/** Smallest move worth a database write: at most ~28 progress writes per document. */
const STEP = 0.02;

/**
 * The progress of a document while the worker hands its passages over, measured by the characters of text seen
 * against the file's size. For plain text, Markdown, CSV and HTML that is close to exact; for PDF, DOCX, XLSX and
 * images the file holds more bytes than text, so the figure runs behind and the document then moves on to the next
 * stage: it never overshoots and never goes backwards.
 */
export class AnalysisProgress {
  private chars = 0;
  private reported = ANALYSIS_START;

  constructor(private readonly bytes: number) {}

  /** Counts a batch; returns the new progress when it moved enough to report, else null. */
  add(batch: readonly PreparedPassage[]): number | null {
    for (const p of batch) this.chars += p.text.length;
    const fraction = Math.min(1, this.chars / Math.max(1, this.bytes));
    const value = Math.round((ANALYSIS_START + (ANALYSIS_END - ANALYSIS_START) * fraction) * 1000) / 1000;
    if (value - this.reported < STEP) return null;
    this.reported = value;
    return value;
  }
}
