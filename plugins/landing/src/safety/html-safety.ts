// The HTML checks and the sanitizer, loaded at the first page they look at rather than when the plugin loads: their
// parser and sanitizer (htmlparser2, sanitize-html with postcss) were most of what loading this plugin cost a start,
// and most starts never check a page.
import type { inspectLanding, visibleText } from './inspect.js';
import type { sanitizeLanding } from './sanitize.js';

export interface HtmlSafety {
  inspectLanding: typeof inspectLanding;
  visibleText: typeof visibleText;
  sanitizeLanding: typeof sanitizeLanding;
}

let loading: Promise<HtmlSafety> | undefined;

/** The checks and the sanitizer (inspect.ts, sanitize.ts), imported once. */
export function htmlSafety(): Promise<HtmlSafety> {
  loading ??= Promise.all([import('./inspect.js'), import('./sanitize.js')]).then(([inspect, sanitize]) => ({
    inspectLanding: inspect.inspectLanding,
    visibleText: inspect.visibleText,
    sanitizeLanding: sanitize.sanitizeLanding,
  }));
  return loading;
}
