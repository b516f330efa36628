import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CerebroExtractionError } from '../errors.js';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { imageOnlyPdf, scannedPage, tiffOf } from '../testing/scanned.js';
import { extractFile, formatOf, MEDIA_TYPES } from './extract.js';
import { imagePages } from './image-size.js';

let dir: TempDir;
let png: Buffer;
let jpeg: Buffer;
const LINES = ['Horario de la biblioteca municipal', 'Abrimos de lunes a viernes de nueve a dos.'];
before(async () => {
  dir = await tempDir();
  png = await scannedPage(LINES, 'png');
  jpeg = await scannedPage(['Las devoluciones se aceptan durante treinta dias.'], 'jpeg');
});
after(() => dir.cleanup());

const text = (blocks: { text: string }[]) =>
  blocks
    .map((b) => b.text)
    .join('\n')
    .replace(/\s+/g, ' ');

test('images are upload formats with their content types', () => {
  assert.deepEqual(
    ['a.png', 'b.JPG', 'c.jpeg', 'd.tif', 'e.tiff'].map((n) => formatOf(n)),
    ['png', 'jpeg', 'jpeg', 'tiff', 'tiff'],
  );
  assert.equal(formatOf('escaneo', 'image/tiff'), 'tiff');
  assert.equal(MEDIA_TYPES.jpeg, 'image/jpeg');
});

test('image sizes are read from PNG, JPEG and TIFF headers', async () => {
  const [p] = imagePages(png, 10)!;
  assert.deepEqual(imagePages(await tiffOf(png), 10), [p]);
  assert.equal(imagePages(jpeg, 10)![0]!.width, p!.width);
  assert.equal(imagePages(Buffer.from('no es una imagen'), 10), null);
});

test('a PNG, a JPEG and a TIFF are read with OCR', async () => {
  for (const [name, bytes] of [
    ['horario.png', png],
    ['horario.tiff', await tiffOf(png)],
  ] as const) {
    const doc = await extractFile(await dir.file(name, bytes), name);
    assert.match(text(doc.blocks), /lunes a viernes de nueve a dos/, name);
    assert.equal(doc.blocks[0]!.page, 1);
  }
  const doc = await extractFile(await dir.file('devoluciones.jpg', jpeg), 'devoluciones.jpg');
  assert.match(text(doc.blocks), /devoluciones se aceptan durante treinta/);
});

test('a PDF with scanned pages is read with OCR, page numbers kept beside the pages that have text', async () => {
  const pdf = imageOnlyPdf([['Indice del reglamento'], jpeg]);
  const doc = await extractFile(await dir.file('mixto.pdf', pdf), 'mixto.pdf');
  assert.equal(doc.pages, 2);
  assert.ok(doc.blocks.some((b) => b.page === 1 && /Indice del reglamento/.test(b.text)));
  assert.ok(doc.blocks.some((b) => b.page === 2 && /devoluciones se aceptan/.test(b.text)));
});

test('a damaged image or one too large fails with its reason before OCR', async () => {
  const fails = async (name: string, bytes: Buffer, code: string) => {
    await assert.rejects(
      extractFile(await dir.file(name, bytes), name),
      (err: unknown) => err instanceof CerebroExtractionError && err.code === code,
    );
  };
  await fails('roto.png', Buffer.from('\x89PNG no es una imagen'), 'corrupto');
  const huge = Buffer.from(png);
  huge.writeUInt32BE(20_000, 16);
  huge.writeUInt32BE(20_000, 20);
  await fails('enorme.png', huge, 'demasiado_grande');
});

test('without tesseract, an image or a wholly scanned PDF fails with a reason naming the package; a PDF keeps its text pages', async () => {
  // A PATH with poppler but no tesseract.
  const bin = await tempDir();
  await symlink('/usr/bin/pdftotext', join(bin.path, 'pdftotext'));
  await symlink('/usr/bin/pdfinfo', join(bin.path, 'pdfinfo'));
  await symlink('/usr/bin/pdftoppm', join(bin.path, 'pdftoppm'));
  const path = process.env.PATH;
  process.env.PATH = bin.path;
  const missing = (err: unknown) =>
    err instanceof CerebroExtractionError && err.code === 'no_soportado' && /tesseract-ocr/.test(err.reason);
  try {
    await assert.rejects(extractFile(await dir.file('sin-ocr.png', png), 'sin-ocr.png'), missing);
    await assert.rejects(extractFile(await dir.file('escaneado.pdf', imageOnlyPdf([jpeg])), 'escaneado.pdf'), missing);
    const doc = await extractFile(
      await dir.file('mixto.pdf', imageOnlyPdf([['Indice del reglamento'], jpeg])),
      'mixto.pdf',
    );
    assert.deepEqual(
      doc.blocks.map((b) => b.page),
      [1],
    );
  } finally {
    process.env.PATH = path;
    await bin.cleanup();
  }
});
