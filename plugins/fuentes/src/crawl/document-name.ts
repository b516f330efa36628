import { createHash } from 'node:crypto';

const MAX_NAME_BYTES = 200;

/**
 * The name of the document a page becomes: its address without the scheme, path segments joined by " › "
 * (document names cannot hold "/"), e.g. `ejemplo.com › docs › precios.html`. The URL itself is in the origin.
 * Long names are cut and end in a short hash of the URL, so two long addresses never share a name.
 */
export function documentNameOf(rawUrl: string): string {
  const url = new URL(rawUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const query = url.search ? ` ${url.search.replace(/[/\\]/g, '%2F')}` : '';
  const name = [url.host, ...segments].join(' › ').replace(/\\/g, '%5C') + query;
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const hash = createHash('sha256').update(url.href).digest('hex').slice(0, 10);
  let cut = name;
  while (Buffer.byteLength(cut) > MAX_NAME_BYTES - 13) cut = cut.slice(0, -1);
  return `${cut} ~${hash}`;
}
