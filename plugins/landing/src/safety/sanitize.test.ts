// The allow-list sanitizer against the OWASP XSS filter-evasion vectors (xss-vectors.ts): after sanitizing, no
// vector leaves anything the allow-list refuses, and the inspector that answers `validar` refuses every original.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocument, DomUtils } from 'htmlparser2';
import { inspectLanding } from './inspect.js';
import { sanitizeLanding } from './sanitize.js';
import { pageWith, XSS_VECTORS } from './xss-vectors.js';

const SECURITY = new Set([
  'comentario_no_permitido',
  'etiqueta_no_permitida',
  'atributo_no_permitido',
  'manejador_de_eventos',
  'url_no_permitida',
  'meta_no_permitida',
  'css_no_permitido',
  'peticion_externa',
]);

/** Independent of the allow-list code: what must never be in a stored page, read from the parsed result. */
function dangers(html: string): string[] {
  const found: string[] = [];
  const doc = parseDocument(html, { decodeEntities: true });
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    if (
      /^(script|iframe|frame|frameset|object|embed|applet|form|input|button|base|svg|math|template|noscript|video|audio|source|portal|isindex|bgsound|xml|marquee)$/i.test(
        el.name,
      )
    )
      found.push(`<${el.name}>`);
    if (
      el.name === 'link' &&
      !(el.attribs.rel === 'icon' && /^data:image\/(png|gif);base64,/.test(el.attribs.href ?? ''))
    )
      found.push('<link>');
    for (const [name, value] of Object.entries(el.attribs)) {
      if (/^on/i.test(name)) found.push(`${el.name} ${name}`);
      if (
        name === 'style' ||
        name === 'srcset' ||
        name === 'ping' ||
        name === 'formaction' ||
        name === 'background' ||
        name === 'dynsrc' ||
        name === 'lowsrc' ||
        name === 'srcdoc'
      )
        found.push(`${el.name} ${name}`);
      const compact = value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();
      if (/^(javascript|vbscript|livescript):/.test(compact)) found.push(`${el.name} ${name}=script URL`);
      if (compact.startsWith('data:') && !/^data:image\/(png|jpeg|gif|webp|avif);/.test(compact))
        found.push(`${el.name} ${name}=data URL`);
      if ((name === 'src' || (el.name === 'link' && name === 'href')) && !compact.startsWith('data:image/'))
        found.push(`${el.name} ${name} external`);
      if (name === 'http-equiv') found.push('meta http-equiv');
    }
    if (el.name === 'style') {
      const css = DomUtils.textContent(el);
      if (/@import|url\(|expression|behavior|\\/i.test(css.replace(/scroll-behavior/g, ''))) found.push('css');
    }
  }
  return found;
}

test('the fixture holds the cheat sheet: dozens of vectors, each distinct', () => {
  assert.ok(XSS_VECTORS.length >= 90, String(XSS_VECTORS.length));
  assert.equal(new Set(XSS_VECTORS.map((v) => v.name)).size, XSS_VECTORS.length);
});

test('a clean landing passes the inspector and comes out of the sanitizer with the same elements', () => {
  const page = pageWith(
    '<p>Hola <a href="https://tienda.example">tienda</a></p><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo">',
  );
  assert.deepEqual(inspectLanding(page), []);
  const clean = sanitizeLanding(page);
  assert.deepEqual(inspectLanding(clean), []);
  assert.match(clean, /<style>body\{margin:0\}<\/style>/);
  assert.match(clean, /<a href="https:\/\/tienda\.example">tienda<\/a>/);
  assert.match(clean, /<meta property="og:title" content="Prueba" \/>/);
});

for (const vector of XSS_VECTORS) {
  test(`XSS vector «${vector.name}»: nothing survives the sanitizer, and validar refuses the original`, () => {
    for (const page of [pageWith(vector.html), pageWith('', vector.html)]) {
      const clean = sanitizeLanding(page);
      assert.deepEqual(dangers(clean), [], clean);
      assert.deepEqual(
        inspectLanding(clean).filter((p) => SECURITY.has(p.codigo)),
        [],
        clean,
      );
    }
    const problems = inspectLanding(pageWith(vector.html));
    assert.ok(
      problems.some((p) => SECURITY.has(p.codigo)),
      `validar would accept: ${vector.html}`,
    );
  });
}
