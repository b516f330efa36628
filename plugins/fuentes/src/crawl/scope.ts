import type { SourceSettings } from '../store/source-model.js';

/** Whether a link found on a site crawl belongs to it: same origin (or a subdomain, when allowed) and the path prefix. */
export function siteScope(
  start: string,
  settings: Pick<SourceSettings, 'prefijo' | 'mismo_origen'>,
): (url: string) => boolean {
  const origin = new URL(start);
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const sameOrigin = url.origin === origin.origin;
    const subdomain =
      !settings.mismo_origen && url.protocol === origin.protocol && url.hostname.endsWith(`.${origin.hostname}`);
    return (sameOrigin || subdomain) && url.pathname.startsWith(settings.prefijo);
  };
}

/** The URL as a run compares it: fragment dropped (the WHATWG parser already folds case, ports and dot segments). */
export function normalizeUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
