// What a page becomes: main content without navigation and boilerplate, links in scope, robots meta, names.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { documentNameOf } from '../crawl/document-name.js';
import { siteScope } from '../crawl/scope.js';
import { decodeHtml } from './page-content.js';
import { PageReader } from './page-reader.js';

const reader = new PageReader();
const never = new AbortController().signal;
const pageContent = (body: Buffer, mediaType: string, contentType: string | undefined, url: string) =>
  reader.read(body, mediaType, contentType, url, never);
after(() => reader.close());

const PAGE = `<html><head><title>Guía de precios</title><base href="/docs/"></head><body>
<nav><a href="/">Inicio</a> <a href="a.html#parte">A</a> <a href="mailto:x@y.z">Correo</a> <a href="javascript:void(0)">J</a></nav>
<header><p>Cabecera del sitio con el menú</p></header>
<main><h2>Planes</h2><p>El plan básico cuesta 10 euros al mes e incluye soporte por correo electrónico en horario laboral de lunes a viernes.</p>
<p>El plan avanzado cuesta 25 euros al mes e incluye soporte telefónico las 24 horas y copias de seguridad diarias de todos los datos.</p></main>
<footer>Pie de página © <a href="legal.html" rel="nofollow">Aviso legal</a></footer></body></html>`;

test('HTML keeps its main content (no navigation, header or footer) and gives the links to follow', async () => {
  const content = await pageContent(
    Buffer.from(PAGE),
    'text/html',
    'text/html; charset=utf-8',
    'https://a.test/docs/index.html',
  );
  const html = String(content.document!.content);
  assert.match(html, /plan avanzado cuesta 25 euros/);
  assert.match(html, /<h1>Guía de precios<\/h1>/);
  for (const boilerplate of ['Cabecera del sitio', 'Pie de página', 'Inicio'])
    assert.ok(!html.includes(boilerplate), boilerplate);
  assert.deepEqual(
    content.html!.links,
    ['https://a.test/', 'https://a.test/docs/a.html'],
    'base href honoured, fragments dropped, nofollow and non-http skipped',
  );
});

test('noindex keeps a page out of the documents; nofollow keeps its links out; other types pass as they are', async () => {
  const noindex = await pageContent(
    Buffer.from(
      '<html><head><meta name="robots" content="noindex, nofollow"></head><body><p>Texto</p><a href="/x">x</a></body></html>',
    ),
    'text/html',
    undefined,
    'https://a.test/',
  );
  assert.equal(noindex.document, null);
  assert.deepEqual(noindex.html!.links, []);
  const pdf = await pageContent(Buffer.from('%PDF-1.4'), 'application/pdf', 'application/pdf', 'https://a.test/x.pdf');
  assert.equal(pdf.document!.mediaType, 'application/pdf');
});

// Shaped like the DocBook parts of the FreedomBox manual (/usr/share/freedombox/manual/es/*.part.html): no <html>,
// <head> or <body>, which made Readability throw and the page fail as damaged.
const FRAGMENT = `<section class="article" id="id1"><div class="titlepage"><h2 class="title">Calibre</h2><hr/></div>
<p>Calibre es una solución para administrar libros electrónicos. Puedes organizar tus libros en bibliotecas y leerlos desde cualquier dispositivo.</p>
<section class="section" id="id2"><h3>Acceso</h3><p>Tras la instalación se puede acceder a Calibre mediante el cliente web en la dirección de tu servidor, con un usuario del grupo calibre.</p>
<p>Consulta <a href="usuarios.html#grupos">Usuarios y grupos</a>.</p></section></section>`;

test('HTML without <body> is read as if it had one: title, headings and text kept, scripts and styles left out', async () => {
  const url = 'https://a.test/manual/calibre.html';
  const fragment = await pageContent(Buffer.from(FRAGMENT), 'text/html', undefined, url);
  const read = String(fragment.document!.content);
  for (const kept of ['<h2>Calibre</h2>', '<h3>Acceso</h3>', 'administrar libros electrónicos', 'grupo calibre'])
    assert.ok(read.includes(kept), kept);
  assert.deepEqual(fragment.html!.links, ['https://a.test/manual/usuarios.html']);

  // A head written without a body: the title heads the document; scripts and styles, in the head or not, are no text.
  const headed = `<html><head><title>Manual de Calibre</title><script>var ruido = 1;</script></head>
<h2>Copias</h2><style>p { color: red }</style><p>Las copias de seguridad de la biblioteca se hacen cada noche.</p></html>`;
  const titled = String((await pageContent(Buffer.from(headed), 'text/html', undefined, url)).document!.content);
  assert.match(titled, /<title>Manual de Calibre<\/title>.*<h1>Manual de Calibre<\/h1>/s);
  assert.match(titled, /<h2>Copias<\/h2>.*cada noche/s);
  for (const dropped of ['ruido', 'color: red']) assert.ok(!titled.includes(dropped), dropped);

  // Nothing to read is still no document, as for a page with an empty body, not a damaged page.
  for (const empty of ['', '<script src="tslib.js"></script>', '<html><head><title>Vacía</title></head></html>'])
    assert.equal((await pageContent(Buffer.from(empty), 'text/html', undefined, url)).document, null, empty);
});

test('charsets: header first, then <meta charset>, else UTF-8', () => {
  const latin1 = Buffer.from('<p>Canción</p>', 'latin1');
  assert.equal(decodeHtml(latin1, 'text/html; charset=iso-8859-1'), '<p>Canción</p>');
  assert.match(
    decodeHtml(Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]), 'text/html'),
    /Canción/,
  );
  assert.equal(decodeHtml(Buffer.from('<p>ñ</p>'), undefined), '<p>ñ</p>');
});

test('document names: host and path joined by " › ", no slashes, long ones cut with a hash', () => {
  assert.equal(
    documentNameOf('https://Ejemplo.com:8443/docs/guia.html?v=1/2'),
    'ejemplo.com:8443 › docs › guia.html ?v=1%2F2',
  );
  assert.equal(documentNameOf('https://ejemplo.com/'), 'ejemplo.com');
  const long = documentNameOf(`https://ejemplo.com/${'segmento/'.repeat(40)}`);
  assert.ok(Buffer.byteLength(long) <= 200 && / ~[0-9a-f]{10}$/.test(long));
  assert.notEqual(long, documentNameOf(`https://ejemplo.com/${'segmento/'.repeat(41)}`));
});

test('site scope: same origin and prefix by default; subdomains when asked', () => {
  const strict = siteScope('https://ejemplo.com/docs/', { prefijo: '/docs/', mismo_origen: true });
  assert.equal(strict('https://ejemplo.com/docs/a'), true);
  assert.equal(strict('https://ejemplo.com/blog/a'), false);
  assert.equal(strict('http://ejemplo.com/docs/a'), false);
  assert.equal(strict('https://ayuda.ejemplo.com/docs/a'), false);
  const wide = siteScope('https://ejemplo.com/', { prefijo: '/', mismo_origen: false });
  assert.equal(wide('https://ayuda.ejemplo.com/x'), true);
  assert.equal(wide('https://otroejemplo.com/x'), false);
});

// Readability's visibility test, answered without linkedom's `style` for elements without a style attribute: what it
// keeps and drops must not change. Hidden by style, by `hidden`, by aria-hidden (unless a fallback image), visible
// otherwise, checked against Readability's own test on the same page.
const HIDDEN = `<html><head><title>Visibilidad</title></head><body><article>
<p>Este párrafo se ve siempre y tiene texto suficiente para que Readability lo tome como parte del artículo principal.</p>
<div style="display: none"><p>Oculto por estilo display none, con texto suficiente para contar como contenido del artículo.</p></div>
<div style="visibility:hidden"><p>Oculto por estilo visibility hidden, con texto suficiente para contar como contenido.</p></div>
<div style="color: red"><p>Visible con un estilo que no oculta, con texto suficiente para contar como contenido del artículo.</p></div>
<div hidden><p>Oculto por el atributo hidden, con texto suficiente para contar como contenido del artículo principal.</p></div>
<div aria-hidden="true"><p>Oculto por aria-hidden, con texto suficiente para contar como contenido del artículo principal.</p></div>
<div aria-hidden="true" class="mwe-math-fallback-image-inline"><p>Imagen de reserva visible, con texto suficiente para contar.</p></div>
<div aria-hidden="false"><p>Visible con aria-hidden false, con texto suficiente para contar como contenido del artículo.</p></div>
</article></body></html>`;

test('hidden elements: dropped and kept exactly as Readability decides', async () => {
  const { Readability } = await import('@mozilla/readability');
  const { parsePage } = await import('./page-document.js');
  const theirs = new Readability(parsePage(HIDDEN) as never, { charThreshold: 100 }).parse()!.content!;
  const ours = String(
    (await pageContent(Buffer.from(HIDDEN), 'text/html', undefined, 'https://a.test/')).document!.content,
  );
  assert.ok(ours.includes(theirs), 'same main content as Readability on its own');
  for (const seen of ['se ve siempre', 'estilo que no oculta', 'Imagen de reserva', 'aria-hidden false'])
    assert.match(ours, new RegExp(seen));
  for (const hidden of ['display none', 'visibility hidden', 'atributo hidden', 'Oculto por aria-hidden'])
    assert.ok(!ours.includes(hidden), hidden);
});
