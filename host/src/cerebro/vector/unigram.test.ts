import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embeddingTableModel } from '../testing/onnx-model.js';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { OnnxEmbedder } from './onnx-embedder.js';
import { UnigramTokenizer } from './unigram.js';

const VOCAB: [string, number][] = [
  ['<s>', 0],
  ['<pad>', 0],
  ['</s>', 0],
  ['<unk>', 0],
  ['▁', -2],
  ['▁con', -3],
  ['fig', -4],
  ['uración', -4],
  ['▁configuración', -5],
  ['▁la', -1.5],
  ['▁red', -2],
  ['▁r', -3],
  ['ed', -3],
  ['é', -5],
];
const id = (piece: string) => VOCAB.findIndex(([p]) => p === piece);

test('Unigram picks the most probable segmentation, with the model markers around it', () => {
  const tok = new UnigramTokenizer(VOCAB, 3, 0, 2, 1);
  assert.deepEqual(tok.encode('la configuración', 16), [0, id('▁la'), id('▁configuración'), 2]);
  assert.deepEqual(tok.encode('  red ', 16), [0, id('▁red'), 2]);
  assert.deepEqual(tok.encode('conuración', 16), [0, id('▁con'), id('uración'), 2]);
});

test('Unigram marks unknown characters once, composes text (NFKC) and truncates', () => {
  const tok = new UnigramTokenizer(VOCAB, 3, 0, 2, 1);
  assert.deepEqual(tok.encode('la xyz', 16), [0, id('▁la'), id('▁'), 3, 2]);
  assert.deepEqual(tok.encode('configuracio\u0301n', 16), [0, id('▁configuración'), 2]);
  assert.deepEqual(tok.encode('la red la red', 4), [0, id('▁la'), id('▁red'), 2]);
});

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

test('a model directory with a Unigram tokenizer.json loads and embeds', async () => {
  const tokenizer = {
    model: { type: 'Unigram', unk_id: 3, vocab: VOCAB },
    normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled' }] },
    added_tokens: [
      { id: 0, content: '<s>' },
      { id: 1, content: '<pad>' },
      { id: 2, content: '</s>' },
      { id: 3, content: '<unk>' },
    ],
  };
  await dir.file('tokenizer.json', JSON.stringify(tokenizer));
  const rows = VOCAB.map(([p]) => Float32Array.from(p === '▁red' ? [0, 1] : p === '▁configuración' ? [1, 0] : [0, 0]));
  await dir.file('model.onnx', embeddingTableModel(rows));
  const embedder = await OnnxEmbedder.load(dir.path, { queryPrefix: '', passagePrefix: '' });
  assert.equal(embedder.dimensions, 2);
  const [a, b] = await embedder.embed(['configuración', 'red'], 'passage');
  assert.deepEqual(
    [...a!].map((x) => Math.round(x)),
    [1, 0],
  );
  assert.deepEqual(
    [...b!].map((x) => Math.round(x)),
    [0, 1],
  );
});
