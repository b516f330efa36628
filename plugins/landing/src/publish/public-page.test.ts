// The published page is the stored version with two additions of this module's own: the button's links counted,
// and the form; everything else stays byte for byte.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicPage, pageTitle, thanksPage } from './public-page.js';

const STORED = `<!DOCTYPE html>
<html lang="es">
<head>
<title>Zapatillas</title>
<style>body{margin:0}</style>
</head>
<body>
<main>
<a class="boton" href="https://tienda.example/a?x=1&amp;y=2">Comprar</a>
<a href="https://tienda.example/otra">Otra</a>
<p>Texto con &lt;/main&gt; escrito.</p>
</main>
<footer>Pie</footer>
</body>
</html>
`;

const options = {
  token: 'Tok_en-123',
  ctaUrl: 'https://tienda.example/a?x=1&y=2',
  formulario: true,
  idioma: 'es' as const,
  tema: 'azul' as const,
};

test('links to the button URL go through the counter; other links and text stay; the form sits at the end of <main>', () => {
  const page = publicPage(STORED, options);
  assert.match(page, /<a class="boton" href="Tok_en-123\/cta">Comprar<\/a>/);
  assert.match(page, /<a href="https:\/\/tienda\.example\/otra">Otra<\/a>/);
  assert.match(page, /<p>Texto con &lt;\/main&gt; escrito\.<\/p>\n<section class="bloque formulario"/);
  assert.match(page, /<form method="post" action="Tok_en-123\/contacto" accept-charset="utf-8">/);
  assert.match(page, /<\/form><\/div><\/section>\n<\/main>\n<footer>Pie<\/footer>/);
  assert.equal((page.match(/<style>/g) ?? []).length, 2, 'the form brings its own styles into <head>');
  assert.match(page, /<input id="f-consentimiento" name="consentimiento" type="checkbox" value="si" required>/);
  assert.match(page, /<div class="trampa" aria-hidden="true">/);
});

test('without the form only the button changes; a mailto or tel button is left alone (no counter)', () => {
  const plain = publicPage(STORED, { ...options, formulario: false });
  assert.equal(plain, STORED.replace('href="https://tienda.example/a?x=1&amp;y=2"', 'href="Tok_en-123/cta"'));
  const mail = STORED.replace('https://tienda.example/a?x=1&amp;y=2', 'mailto:ventas@tienda.example');
  assert.equal(publicPage(mail, { ...options, formulario: false, ctaUrl: 'mailto:ventas@tienda.example' }), mail);
});

test('the form and the thanks page speak the page language', () => {
  const en = publicPage(STORED, { ...options, idioma: 'en' });
  assert.match(en, /<h2 id="t-formulario">Get in touch<\/h2>/);
  assert.match(en, /<button type="submit">Send<\/button>/);
  const thanks = thanksPage({ token: 'Tok_en-123', idioma: 'es', tema: 'verde', titulo: 'Zapatillas <b>' });
  assert.match(thanks, /<title>¡Gracias! · Zapatillas &lt;b&gt;<\/title>/);
  assert.match(thanks, /<a href="\.\.\/Tok_en-123">Volver a la página<\/a>/);
});

test("a page's own title, as text, names the thanks page; none without one", () => {
  assert.equal(pageTitle('<html><head><title>Lámparas &amp; «luz»</title></head></html>'), 'Lámparas & «luz»');
  assert.equal(pageTitle('<html><head></head><body>sin título</body></html>'), null);
  const untitled = thanksPage({ token: 't', idioma: 'es', tema: 'verde', titulo: null });
  assert.match(untitled, /<title>¡Gracias!<\/title>/);
});
