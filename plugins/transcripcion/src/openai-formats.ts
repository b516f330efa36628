import { Reply } from '@cerebro/sdk';
import type { DetailedTranscription, TranscriptSegment } from './engine/index.js';

/** The `response_format` values of OpenAI's transcription API. */
export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** `00:01:02,345` (SRT, `separator` ',') or `00:01:02.345` (WebVTT, '.'). */
export function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** SubRip: numbered cues, blank line after each. */
export function srt(segments: readonly TranscriptSegment[]): string {
  return segments
    .map((s, i) => `${i + 1}\n${timestamp(s.startS, ',')} --> ${timestamp(s.endS, ',')}\n${s.text}\n\n`)
    .join('');
}

/** WebVTT: the header, then one cue per segment. */
export function vtt(segments: readonly TranscriptSegment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${timestamp(s.startS, '.')} --> ${timestamp(s.endS, '.')}\n${s.text}\n\n`).join('')}`;
}

/** OpenAI reports the language by its English name in lower case (`spanish`), not by its code. */
export function languageName(code: string): string {
  const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }).of(code);
  return (name ?? code).toLowerCase();
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The answer in the requested format, as OpenAI's API gives it. */
export function formatTranscription(
  format: ResponseFormat,
  { result, segments, words }: DetailedTranscription,
  withWords = false,
): unknown {
  const text = result.texto;
  switch (format) {
    case 'json':
      return { text, usage: { type: 'duration', seconds: Math.ceil(result.duracion_s) } };
    case 'text':
      return Reply.send(200, `${text}\n`, 'text/plain; charset=utf-8');
    case 'srt':
      return Reply.send(200, srt(segments), 'application/x-subrip; charset=utf-8');
    case 'vtt':
      return Reply.send(200, vtt(segments), 'text/vtt; charset=utf-8');
    case 'verbose_json':
      return {
        task: 'transcribe',
        language: languageName(result.idioma ?? 'es'),
        duration: result.duracion_s,
        text,
        segments: segments.map((s, id) => ({ id, start: round(s.startS), end: round(s.endS), text: s.text })),
        ...(withWords
          ? { words: words.map((w) => ({ word: w.text, start: round(w.startS), end: round(w.endS) })) }
          : {}),
        usage: { type: 'duration', seconds: Math.ceil(result.duracion_s) },
      };
  }
}
