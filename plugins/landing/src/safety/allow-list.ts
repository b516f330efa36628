// The one allow-list of what a stored landing may contain. The sanitizer (sanitize-html) enforces it and the
// inspector (which lists problems for `validar`) reports against it, so both always agree.

export const ALLOWED_TAGS: readonly string[] = [
  'html',
  'head',
  'body',
  'meta',
  'title',
  'style',
  'link',
  'header',
  'nav',
  'main',
  'section',
  'article',
  'aside',
  'footer',
  'address',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'a',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'strong',
  'em',
  'b',
  'i',
  'small',
  'span',
  'div',
  'br',
  'hr',
  'blockquote',
  'q',
  'cite',
  'mark',
  'abbr',
  's',
  'sub',
  'sup',
  'time',
  'img',
  'figure',
  'figcaption',
  'picture',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'details',
  'summary',
];

/** Attributes per tag; `*` applies to every tag. No `style` attribute (CSS lives in the one `<style>`), no `on*`. */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  '*': [
    'class',
    'id',
    'lang',
    'dir',
    'title',
    'role',
    'aria-label',
    'aria-labelledby',
    'aria-describedby',
    'aria-hidden',
  ],
  html: ['lang'],
  meta: ['charset', 'name', 'property', 'content'],
  /** Only `rel="icon"` with an embedded image (so the browser does not ask the host for /favicon.ico). */
  link: ['rel', 'href'],
  a: ['href', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
  time: ['datetime'],
  th: ['scope', 'colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  ol: ['start', 'reversed'],
  details: ['open'],
};

/** Link targets a person may follow (navigation, not a request the page makes by itself). */
export const LINK_SCHEMES: readonly string[] = ['https', 'http', 'mailto', 'tel'];

/** The only images: embedded raster data. SVG is left out: as a document it can carry script. */
export const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[a-z0-9+/=\s]+$/i;

/** `meta name` values a landing uses; anything else (notably `http-equiv`, which can refresh) is not allowed. */
export const META_NAMES: readonly string[] = ['description', 'viewport', 'theme-color', 'robots', 'author'];
export const META_PROPERTY = /^og:[a-z_:]+$/;

/** What CSS inside `<style>` must never hold: loads from elsewhere and old script hooks. */
export function cssProblems(css: string): string[] {
  const problems: string[] = [];
  if (/@import/i.test(css)) problems.push('@import carga hojas de estilo externas');
  for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!IMAGE_DATA_URL.test(m[2].trim())) problems.push(`url(${m[2].slice(0, 60)}) hace una petición externa`);
  }
  if (/expression\s*\(|(?<![-\w])behavio(?:u)?r\s*:|-moz-binding|javascript:/i.test(css))
    problems.push('el CSS contiene código ejecutable (expression, behavior, -moz-binding o javascript:)');
  if (/<\//.test(css)) problems.push('el CSS contiene una etiqueta de cierre');
  if (/\\/.test(css)) problems.push('el CSS contiene escapes con barra invertida (pueden ocultar url() o @import)');
  return problems;
}

/** The one `<link>` a landing may hold: its icon, embedded. */
export function isEmbeddedIcon(attribs: Readonly<Record<string, string | undefined>>): boolean {
  return String(attribs.rel ?? '').toLowerCase() === 'icon' && IMAGE_DATA_URL.test(String(attribs.href ?? ''));
}
