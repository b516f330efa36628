/**
 * How a landing's HTML is served from the API's origin without ever running as it.
 *
 * `Content-Disposition: inline` so a person can preview it in a browser, with a CSP whose `sandbox` directive (no
 * `allow-scripts`, no `allow-same-origin`, no `allow-forms`) puts the document in a unique opaque origin: even if a
 * page held something the sanitizer missed, it could not run script, read the API origin's cookies or storage,
 * submit forms or be framed by another site. `default-src 'none'` with only inline styles and `data:` images allowed means the page
 * cannot make a request either. `attachment` was the alternative; it blocks previews and protects no more than
 * the sandbox does. `filename` names the file when it is saved for publishing elsewhere. `frame-ancestors 'self'`:
 * only Studio, served from this same origin, may frame it (its preview is an `<iframe sandbox="">`); any other
 * site is refused.
 */
export const contentSecurityPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

export function htmlHeaders(landingId: string, version: number): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy,
    // Same spelling as the pipeline's header, so this one replaces it instead of sending it twice.
    'X-Content-Type-Options': 'nosniff',
    'content-disposition': `inline; filename="${landingId}-v${version}.html"`,
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': 'private, no-cache',
    'x-landing-version': String(version),
  };
}

/**
 * The same policy for a published page, reached by anyone: framed by nobody (`frame-ancestors 'none'`), and, when
 * it carries the lead form, allowed to submit it (`allow-forms`) to its own origin only (`form-action 'self'`,
 * which names the page's address, not the opaque origin the sandbox gives it). Still no script and no request of
 * its own (`connect-src` falls back to `default-src 'none'`), so the page can reach nothing else of the API.
 */
export function publicPolicy(formulario: boolean): string {
  const form = formulario ? "form-action 'self'" : "form-action 'none'";
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; ${form}; frame-ancestors 'none'; sandbox${formulario ? ' allow-forms' : ''}`;
}

/**
 * Headers of a published page or its thanks page. Cacheable by anyone (`public`) but revalidated on every view
 * (`no-cache` with an `ETag`): a 304 saves the bytes, every view is still counted, and an unpublished page is a 404
 * at once instead of living on in a cache.
 */
export function publicHeaders(formulario: boolean, etag?: string): Record<string, string> {
  return {
    'content-security-policy': publicPolicy(formulario),
    'X-Content-Type-Options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...(etag ? { 'cache-control': 'public, no-cache', etag } : { 'cache-control': 'no-store' }),
  };
}
