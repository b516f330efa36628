import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { CerebroExtractionError } from '../errors.js';
import { makeDocx, makeDocxBomb, makeZip, tempDir, type TempDir } from '../testing/fixtures.js';
import { inflatedSize, InflationFailed, InflationLimitExceeded, ZIP_METHOD } from './archive-inflation.js';
import { extractFile } from './extract.js';
import { assertReasonableZip } from './zip-guard.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const refusedAs = (code: string) => (err: unknown) => {
  assert.ok(err instanceof CerebroExtractionError, String(err));
  assert.equal(err.code, code);
  assert.match(err.reason, /descomprimido|dañado/);
  return true;
};

test('inflatedSize counts the real inflated bytes and stops at the first byte past the allowance', async () => {
  const content = Buffer.alloc(5 * 1024 * 1024, 'abc');
  const compressed = deflateRawSync(content);
  assert.equal(await inflatedSize(compressed, ZIP_METHOD.deflate, content.length), content.length);
  await assert.rejects(inflatedSize(compressed, ZIP_METHOD.deflate, content.length - 1), InflationLimitExceeded);
  await assert.rejects(inflatedSize(compressed.subarray(0, 100), ZIP_METHOD.deflate, content.length), InflationFailed);
  await assert.rejects(inflatedSize(compressed, 12, content.length), InflationFailed); // bzip2: not an Office method
  assert.equal(await inflatedSize(Buffer.from('guardado'), ZIP_METHOD.stored, 8), 8);
});

test('a DOCX bomb that declares 1,692 bytes and inflates to 40 MB is refused as too large, before mammoth reads it', async () => {
  const bomb = makeDocxBomb(40 * 1024 * 1024);
  assert.ok(bomb.length < 200 * 1024, `the bomb is small on disk (${bomb.length} bytes)`);
  await assert.rejects(assertReasonableZip(bomb, 'docx'), refusedAs('demasiado_grande'));
  await assert.rejects(extractFile(await dir.file('bomba.docx', bomb), 'bomba.docx'), refusedAs('demasiado_grande'));
  await assert.rejects(extractFile(await dir.file('bomba.xlsx', bomb), 'bomba.xlsx'), refusedAs('demasiado_grande'));
});

test('honest archives pass, including one whose entries inflate to exactly what they declare', async () => {
  await assertReasonableZip(await makeDocx([{ text: 'Hola', heading: 1 }, { text: 'Un párrafo.' }]), 'docx');
  const honest = makeDocxBomb(2 * 1024 * 1024, 2 * 1024 * 1024);
  await assertReasonableZip(honest, 'docx');
  const doc = await extractFile(await dir.file('grande.docx', honest), 'grande.docx');
  assert.ok(doc.blocks.length > 0);
});

test('an entry whose data lies outside the archive or does not inflate is corrupt', async () => {
  const zip = makeZip([{ name: 'word/document.xml', content: Buffer.from('<w:document/>') }]);
  const damaged = Buffer.from(zip);
  damaged.fill(0xff, 30 + 'word/document.xml'.length, 30 + 'word/document.xml'.length + 4); // garbage deflate data
  await assert.rejects(assertReasonableZip(damaged, 'docx'), refusedAs('corrupto'));
});
