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
