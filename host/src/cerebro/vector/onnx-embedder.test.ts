import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CerebroEngine } from '../engine.js';
import { embeddingTableModel } from '../testing/onnx-model.js';
import { migratedDb, tempDir, type TempDir } from '../testing/fixtures.js';
import { OnnxEmbedder } from './onnx-embedder.js';
import { WordPieceTokenizer } from './wordpiece.js';

// A vocabulary where synonyms share an embedding row direction: a real (tiny) model with known geometry.
const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'coche',
  'automovil',
  'perro',
  'mascota',
  'rojo',
  'garaje',
  '##s',
  'el',
  '.',
];
const ROWS: Record<string, number[]> = {
  coche: [1, 0, 0],
  automovil: [1, 0, 0],
  perro: [0, 1, 0],
  mascota: [0, 1, 0],
  garaje: [0.2, 0, 1],
  rojo: [0, 0, 0.3],
};

let dir: TempDir;
before(async () => {
  dir = await tempDir();
  const table = VOCAB.map((t) => Float32Array.from(ROWS[t] ?? [0, 0, 0]));
  await dir.file('model.onnx', embeddingTableModel(table));
  await dir.file('vocab.txt', `${VOCAB.join('\n')}\n`);
});
after(() => dir.cleanup());

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

test('WordPiece splits words and punctuation, lower-cases, strips accents and marks unknown words', () => {
  const tok = WordPieceTokenizer.fromVocabText(VOCAB.join('\n'));
  assert.deepEqual(tok.encode('El Automóvil.', 16), [2, 11, 5, 12, 3]);
  assert.deepEqual(tok.encode('perros', 16), [2, 6, 10, 3]);
  assert.deepEqual(tok.encode('bicicleta', 16), [2, 1, 3]);
  assert.deepEqual(tok.encode('coche coche coche coche', 4), [2, 4, 4, 3]);
});

test('a local ONNX model loads, reports its size and gives unit vectors that follow its geometry', async () => {
  const embedder = await OnnxEmbedder.load(dir.path);
  assert.equal(embedder.dimensions, 3);
  assert.match(embedder.id, /^cerebro-test-/);
  const [coche, automovil, perro] = await embedder.embed(['el coche', 'El automóvil', 'perro'], 'passage');
  assert.ok(Math.abs(cosine(coche!, coche!) - 1) < 1e-5);
  assert.ok(cosine(coche!, automovil!) > 0.99);
  assert.ok(cosine(coche!, perro!) < 0.01);
});

test('a missing model or vocabulary is a clear error', async () => {
  await assert.rejects(OnnxEmbedder.load(`${dir.path}/no-existe`), /no ONNX model/);
});

test('hybrid retrieval through the engine with the ONNX model finds synonyms that words miss', async () => {
  const db = migratedDb();
  const engine = new CerebroEngine({ db, embedder: await OnnxEmbedder.load(dir.path) });
  await engine.start();
  await engine.documents.submit('s', { name: 'a.txt', path: await dir.file('a.txt', 'El coche rojo.'), bytes: 14 });
  await engine.documents.submit('s', {
    name: 'b.txt',
    path: await dir.file('b.txt', 'El perro en el garaje.'),
    bytes: 22,
  });
  await engine.documents.idle();
  const hits = await engine.search('s', 'automóvil', 2);
  assert.equal(hits[0]?.documentName, 'a.txt');
  await engine.stop();
});
