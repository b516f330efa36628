import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkBlocks } from './chunker.js';
import { normalizeText } from './normalize.js';
import { splitSentences } from './sentences.js';

const sentence = (i: number) =>
  `Esta es la frase número ${i} del texto de prueba, que habla de paquetes y repositorios.`;

test('passages keep their page and never cross a page boundary', () => {
  const passages = chunkBlocks([
    { text: 'Primera página con poco texto.', page: 1 },
    { text: 'Segunda página, también breve.', page: 2 },
  ]);
  assert.equal(passages.length, 2);
  assert.deepEqual(
    passages.map((p) => p.page),
    [1, 2],
  );
});

test('text read with OCR makes passages of its own, marked; other passages carry no mark', () => {
  const passages = chunkBlocks([
    { text: 'Texto de la capa de texto.' },
    { text: 'Texto leído de una imagen.', ocr: true },
    { text: 'Más texto leído de la imagen.', ocr: true },
  ]);
  assert.deepEqual(
    passages.map((p) => [p.text, p.ocr]),
    [
      ['Texto de la capa de texto.', undefined],
      ['Texto leído de una imagen.\nMás texto leído de la imagen.', true],
    ],
  );
});

test('a list past the target size stays in the passage of the sentence announcing it while it fits', () => {
  const prose = Array.from({ length: 7 }, (_, i) => sentence(i)).join(' ');
  const items = [
    'alto: avisa al momento;',
    'medio: avisa cada hora;',
    'bajo: avisa una vez al día;',
    'nulo: no avisa.',
  ];
  const passages = chunkBlocks(
    [
      { text: `${prose} Los niveles de aviso, de mayor a menor:`, headings: ['Avisos'] },
      ...items.map((text) => ({ text, kind: 'list-item' as const, headings: ['Avisos'] })),
      { text: Array.from({ length: 12 }, (_, i) => sentence(i + 10)).join(' '), headings: ['Avisos'] },
    ],
    { targetChars: 700, maxChars: 1200, minChars: 200 },
  );
  assert.ok(
    prose.length > 550 && prose.length < 650,
    'the prose alone stays under the target, its first item passes it',
  );
  assert.match(passages[0]!.text, /de mayor a menor:\n- alto: avisa al momento;\n(- .*\n){2}- nulo: no avisa\.$/);
  assert.ok(passages.every((p) => p.text.length <= 1200));
});

test('passages keep their heading path and never cross a heading boundary', () => {
  const passages = chunkBlocks([
    { text: 'Texto bajo instalación.', headings: ['Guía', 'Instalación'] },
    { text: 'Más texto bajo instalación.', headings: ['Guía', 'Instalación'] },
    { text: 'Texto bajo red.', headings: ['Guía', 'Red'] },
  ]);
  assert.equal(passages.length, 2);
  assert.deepEqual(passages[0]!.headings, ['Guía', 'Instalación']);
  assert.match(passages[0]!.text, /Más texto/);
  assert.deepEqual(passages[1]!.headings, ['Guía', 'Red']);
});

test('long text is cut into passages within the size bounds, at sentence boundaries', () => {
  const text = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' ');
  const passages = chunkBlocks([{ text }], { targetChars: 500, maxChars: 800, minChars: 150 });
  assert.ok(passages.length >= 5);
  for (const p of passages) {
    assert.ok(p.text.length <= 800, `passage of ${p.text.length} chars`);
    assert.match(p.text, /^Esta es la frase/);
    assert.match(p.text, /repositorios\.$/);
  }
  assert.deepEqual(
    passages.map((p) => p.ord),
    passages.map((_, i) => i),
  );
  const rejoined = passages
    .map((p) => p.text)
    .join(' ')
    .replace(/\n/g, ' ');
  assert.equal(rejoined, text);
});

test('a word longer than a passage is still cut, nothing is lost', () => {
  const passages = chunkBlocks([{ text: 'x'.repeat(2500) }], { targetChars: 500, maxChars: 1000, minChars: 100 });
  assert.equal(passages.map((p) => p.text).join(''), 'x'.repeat(2500));
});

test('a short tail joins the previous passage of the same section', () => {
  const blocks = [
    { text: 'a'.repeat(700), headings: ['H'] },
    { text: 'Cola corta.', headings: ['H'] },
  ];
  const passages = chunkBlocks(blocks, { targetChars: 700, maxChars: 1200, minChars: 200 });
  assert.equal(passages.length, 1);
  assert.match(passages[0]!.text, /Cola corta\.$/);
});

test('normalisation composes accents (NFC), drops invisible characters and joins hyphenated line ends', () => {
  const decomposed = 'configuracio\u0301n';
  assert.equal(normalizeText(decomposed), 'configuración');
  assert.equal(normalizeText('a\u00ADb\u200Bc\uFEFF'), 'abc');
  assert.equal(normalizeText('reposi-\ntorio'), 'repositorio');
  assert.equal(normalizeText('uno\r\n\r\n\r\n\r\ndos'), 'uno\n\ndos');
});

test('sentence splitting does not break on abbreviations', () => {
  assert.deepEqual(
    splitSentences('La Dra. Pérez vive en EE. UU. desde 2010. Trabaja con el Sr. Gómez, p. ej. en redes.'),
    ['La Dra. Pérez vive en EE. UU. desde 2010.', 'Trabaja con el Sr. Gómez, p. ej. en redes.'],
  );
});

test('a sentence opening with inline code starts a sentence of its own', () => {
  assert.deepEqual(
    splitSentences(
      'Conviene limpiar la caché cada mes. `limpia --todo` borra cada copia. Use, p. ej. `limpia -n` antes.',
    ),
    ['Conviene limpiar la caché cada mes.', '`limpia --todo` borra cada copia.', 'Use, p. ej. `limpia -n` antes.'],
  );
  assert.deepEqual(splitSentences('Abra el archivo «`notas.txt`» y guárdelo.'), [
    'Abra el archivo «`notas.txt`» y guárdelo.',
  ]);
});

test('a long paragraph is segmented in windows without losing or cutting sentences', () => {
  const line = 'La configuración de red se guarda en el archivo interfaces.';
  const paragraph = Array.from({ length: 5000 }, (_, i) => `${line} Línea ${i} del registro.`).join('\n');
  const sentences = splitSentences(paragraph);
  assert.equal(sentences.length, 10_000);
  assert.equal(sentences[0], line);
  assert.equal(sentences.at(-1), 'Línea 4999 del registro.');
  assert.ok(sentences.every((s) => s === line || /^Línea \d+ del registro\.$/.test(s)));
});
