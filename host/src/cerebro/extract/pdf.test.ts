import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CerebroExtractionError } from '../errors.js';
import { makePdf, tempDir, type TempDir } from '../testing/fixtures.js';
import { pdfToDocument } from './pdf.js';

let dir: TempDir;
before(async () => { dir = await tempDir(); });
after(() => dir.cleanup());

test('a malformed PDF whose parser prints megabytes of errors still yields its text', async () => {
  // 300,000 bogus operators: poppler prints ~9 MB of "Syntax Error" lines; only a 64 KB tail of them is kept.
  const path = await dir.file('ruidoso.pdf', makePdf([['La configuración de red está en interfaces.']], { unknownOperators: 300_000 }));
  const doc = await pdfToDocument(path);
  assert.ok(doc.blocks.some((b) => /configuración de red/.test(b.text)));
});

test('a PDF with more text than the limit fails as demasiado_grande, with a reason', async () => {
  const lines = Array.from({ length: 40 }, (_, i) => `Línea ${i + 1} de una página con bastante texto para pasar el límite.`);
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
