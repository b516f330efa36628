import assert from 'node:assert/strict';
import { test } from 'node:test';
import iconv from 'iconv-lite';
import { CerebroExtractionError } from '../errors.js';
import { decodeText } from './decode.js';

const SPANISH = 'La configuración del año: señal, pingüino, acción y canción. ¿Qué tal? ¡Bien!\n';

test('UTF-8 with and without BOM', () => {
  assert.deepEqual(decodeText(Buffer.from(SPANISH, 'utf8')), { text: SPANISH, encoding: 'utf-8' });
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SPANISH, 'utf8')]);
  assert.deepEqual(decodeText(bom), { text: SPANISH, encoding: 'utf-8' });
});

test('Latin-1 bytes decode correctly (as windows-1252, its superset)', () => {
  const text = SPANISH.repeat(5);
  const decoded = decodeText(iconv.encode(text, 'latin1'));
  assert.equal(decoded.text, text);
  assert.equal(decoded.encoding, 'windows-1252');
});

test('Windows-1252 characters in 0x80–0x9F (€, curly quotes, dashes) survive', () => {
  const text = `${SPANISH}El precio es de 20 € — “oferta” válida… según el catálogo.\n`.repeat(3);
  const decoded = decodeText(iconv.encode(text, 'windows-1252'));
  assert.equal(decoded.text, text);
});

test('UTF-16 little and big endian with BOM, and little endian without BOM', () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(SPANISH, 'utf-16le')]);
  const be = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(SPANISH, 'utf-16be')]);
  assert.deepEqual(decodeText(le), { text: SPANISH, encoding: 'utf-16le' });
  assert.deepEqual(decodeText(be), { text: SPANISH, encoding: 'utf-16be' });
  assert.deepEqual(decodeText(iconv.encode(SPANISH, 'utf-16le')), { text: SPANISH, encoding: 'utf-16le' });
});

test('binary content is refused with a Spanish reason', () => {
  const binary = Buffer.from([
    0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00,
  ]);
  assert.throws(
    () => decodeText(binary),
    (err: unknown) =>
      err instanceof CerebroExtractionError && err.code === 'no_soportado' && /binario/.test(err.reason),
  );
});
