import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CerebroExtractionError } from '../errors.js';
import { makePdf, tempDir, type TempDir } from '../testing/fixtures.js';
import { pdfToDocument } from './pdf.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

test('a malformed PDF whose parser prints megabytes of errors still yields its text', async () => {
  // 300,000 bogus operators: poppler prints ~9 MB of "Syntax Error" lines; only a 64 KB tail of them is kept.
  const path = await dir.file(
    'ruidoso.pdf',
    makePdf([['La configuración de red está en interfaces.']], { unknownOperators: 300_000 }),
  );
  const doc = await pdfToDocument(path);
  assert.ok(doc.blocks.some((b) => /configuración de red/.test(b.text)));
});

test('a PDF with more text than the limit fails as demasiado_grande, with a reason', async () => {
  const lines = Array.from(
    { length: 40 },
    (_, i) => `Línea ${i + 1} de una página con bastante texto para pasar el límite.`,
  );
  const path = await dir.file('extenso.pdf', makePdf(Array.from({ length: 10 }, () => lines)));
  await assert.rejects(pdfToDocument(path, 0, 4096), (err: unknown) => {
    assert.ok(err instanceof CerebroExtractionError);
    assert.equal(err.code, 'demasiado_grande');
    assert.match(err.reason, /demasiado texto/);
    return true;
  });
  // The same document within the default limit is read whole.
  assert.equal((await pdfToDocument(path)).pages, 10);
});

test('a long PDF is read a range of pages at a time, with its page numbers and running lines handled per range', async () => {
  const { pageRanges } = await import('./pdf.js');
  assert.deepEqual(pageRanges(1), [{ first: 1, last: 1 }]);
  assert.deepEqual(pageRanges(201, 200), [
    { first: 1, last: 101 },
    { first: 102, last: 201 },
  ]);
  assert.deepEqual(pageRanges(400, 200), [
    { first: 1, last: 200 },
    { first: 201, last: 400 },
  ]);
  // Lines whose shape is unique to the page (letters, not digits, differ) around the one the test looks for.
  const word = (n: number) => String.fromCharCode(97 + (n % 26), 97 + (Math.floor(n / 26) % 26));
  const pages = Array.from({ length: 450 }, (_, i) => [
    `Manual de prueba ${i + 1} / 450`,
    `Tema ${word(i)}.`,
    `Apartado ${word(i + 7)}.`,
    `Contenido propio de la página ${i + 1}.`,
    `Nota ${word(i + 3)}.`,
    `Cierre ${word(i + 11)}.`,
  ]);
  const doc = await pdfToDocument(await dir.file('largo.pdf', makePdf(pages)));
  assert.equal(doc.pages, 450);
  const pageOf = (n: number) => doc.blocks.find((b) => b.text.includes(`página ${n}.`))?.page;
  assert.deepEqual([pageOf(1), pageOf(150), pageOf(151), pageOf(450)], [1, 150, 151, 450]);
  assert.ok(!doc.blocks.some((b) => /Manual de prueba/.test(b.text)), 'running headers are removed in every range');
});
