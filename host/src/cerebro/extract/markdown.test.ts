import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownPieces, markdownToDocument } from './markdown.js';

const DOC = [
  '# Instalación',
  '',
  'Para instalar ejecuta:',
  '',
  '```sh',
  '# apt install cerebro',
  '## no es un título',
  '```',
  '',
  '## Tabla',
  '',
  '| orden | uso |',
  '|---|---|',
  '| `date` | muestra la hora |',
  '',
  '~~~~',
  '# tampoco',
  '~~~',
  '# sigue siendo código',
  '~~~~',
  '',
  '- uno',
  '- dos',
  '',
].join('\n');

test('markdown is lexed a section at a time, cut only before headings outside fenced code', () => {
  const pieces = [...markdownPieces(DOC)];
  assert.equal(pieces.join(''), DOC);
  assert.equal(pieces.length, 2);
  assert.ok(pieces[1]!.startsWith('## Tabla'));
});

test('blocks read section by section keep code, table rows with their header, lists and the heading path', () => {
  const { blocks, title } = markdownToDocument(DOC);
  assert.equal(title, 'Instalación');
  assert.deepEqual(
    blocks.map((b) => [b.kind ?? 'paragraph', b.text, b.headings]),
    [
      ['paragraph', 'Para instalar ejecuta:', ['Instalación']],
      ['code', '# apt install cerebro\n## no es un título', ['Instalación']],
      ['table-row', '`date` | muestra la hora', ['Instalación', 'Tabla']],
      ['code', '# tampoco\n~~~\n# sigue siendo código', ['Instalación', 'Tabla']],
      ['list-item', 'uno', ['Instalación', 'Tabla']],
      ['list-item', 'dos', ['Instalación', 'Tabla']],
    ],
  );
});

test('a very long section without headings is cut at blank lines, never inside a paragraph', () => {
  const paragraph = 'palabra '.repeat(1000).trim();
  const long = Array.from({ length: 40 }, () => paragraph).join('\n\n');
  const pieces = [...markdownPieces(long)];
  assert.ok(pieces.length > 1);
  assert.equal(pieces.join(''), long);
  assert.equal(markdownToDocument(long).blocks.length, 40);
});

test("an FAQ's question in bold heads its answer, until the next question or heading", () => {
  const doc = markdownToDocument(
    [
      '# Tienda',
      '## Pagos',
      'Aceptamos tarjeta.',
      '',
      '**¿Puedo pagar a plazos?**',
      'Sí, en 3, 6 o 12 meses.',
      '',
      '- Sin intereses.',
      '',
      '**Importante:** no aceptamos contra reembolso.',
      '',
      '**¿Hacéis factura?** Sí, en PDF.',
      '',
      '## Devoluciones',
      'Tienes 30 días.',
    ].join('\n'),
  );
  const headingsOf = (start: string) => doc.blocks.find((b) => b.text.startsWith(start))?.headings;
  assert.deepEqual(headingsOf('Aceptamos'), ['Tienda', 'Pagos']);
  // The question stays in the text, where the answer is quoted after it.
  assert.deepEqual(headingsOf('¿Puedo pagar a plazos? Sí'), ['Tienda', 'Pagos', '¿Puedo pagar a plazos?']);
  assert.deepEqual(headingsOf('Sin intereses'), ['Tienda', 'Pagos', '¿Puedo pagar a plazos?']);
  // Bold that asks nothing is no heading.
  assert.deepEqual(headingsOf('Importante'), ['Tienda', 'Pagos', '¿Puedo pagar a plazos?']);
  assert.deepEqual(headingsOf('¿Hacéis factura? Sí'), ['Tienda', 'Pagos', '¿Hacéis factura?']);
  assert.deepEqual(headingsOf('Tienes 30'), ['Tienda', 'Devoluciones']);
});
