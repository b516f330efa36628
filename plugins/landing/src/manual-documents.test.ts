// A landing made from a technical manual's HTML pages (the Debian handbook's traits): numbered section headings
// ("6.2.5. Gestión de prioridades…"), configuration in code blocks ("Pin: version 5.28*") and version numbers in
// prose. Every figure the page states comes from the text it was taken from (a figure from nowhere still fails:
// model.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base, createLanding, startShop } from './test-support.js';

const MANUAL = `<!DOCTYPE html>
<html lang="es"><head><meta charset="utf-8"><title>6.2. Los programas aptitude, apt-get y apt</title></head>
<body>
<h2>6.2. Los programas aptitude, apt-get y apt</h2>
<p>La gestión de paquetes con apt instala, actualiza y elimina programas resolviendo sus dependencias por usted.</p>
<h3>6.2.5. Gestión de prioridades de los paquetes</h3>
<p>Uno de los aspectos más importantes de la gestión de paquetes con apt es la gestión de las prioridades asociadas con cada origen de paquetes. Otra ventaja de la gestión de paquetes con apt es que permite fijar la versión de un paquete con una entrada como esta:</p>
<pre class="programlisting">Package: perl
Pin: version 5.28*
Pin-Priority: 1001</pre>
<p>La principal ventaja de la gestión de paquetes con apt es la seguridad: apt comprueba la firma de cada paquete, también de la versión 5.28 de Perl, antes de instalarlo.</p>
<h3>6.2.6. Trabajo con varias distribuciones</h3>
<p>Otro beneficio de la gestión de paquetes con apt es la coexistencia: apt gestiona muy bien paquetes de diferentes distribuciones y limita los riesgos.</p>
</body></html>`;

const BRIEF = {
  objetivo: 'vender',
  tema: 'gestión de paquetes con apt',
  cta: { texto: 'Comprar', url: 'https://example.com/comprar' },
};

/** The visible words of a page. */
const words = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

test("a landing from a manual's pages: no section numbers or code on the page, its figures backed by the facts", async (t) => {
  const h = await startShop(t, { documents: { 'sect.apt-get.html': MANUAL } });
  const l = await createLanding(h, BRIEF);
  const v = l.versiones[0];
  assert.equal(v.estado, 'lista', JSON.stringify(v));
  assert.ok(v.hechos.documentos.length > 0);
  for (const f of v.hechos.documentos) {
    assert.doesNotMatch(f.texto, /Pin-Priority|Package:|como esta:/, 'code blocks are no facts');
    assert.equal(f.fuentes[0].documento, 'sect.apt-get.html');
  }
  assert.ok(
    v.hechos.documentos.some((f: { fuentes: { seccion: string }[] }) => /6\.2\.[56]\./.test(f.fuentes[0].seccion)),
    'the provenance keeps the numbered heading',
  );
  const page = words((await h.client.get(`${base(h)}/${l.id}/html`)).text);
  assert.doesNotMatch(page, /6\.2|Pin|1001/);
  assert.match(page, /Gestión de prioridades de los paquetes|Trabajo con varias distribuciones/);
  assert.match(page, /versión 5\.28 de Perl/, 'a sentence is never cut inside a number');
});
