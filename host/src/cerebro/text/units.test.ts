import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkBlocks } from './chunker.js';
import { parseUnits, serializeBlock } from './units.js';
import type { TextBlock } from '../extract/types.js';

const row = (cells: string[], header?: string[], caption?: string): TextBlock => ({
  kind: 'table-row',
  text: cells.join(' | '),
  table: { cells, ...(header ? { header } : {}), ...(caption ? { caption } : {}) },
  headings: ['Guía'],
});

test('typed blocks survive chunking and come back as units: code verbatim, list items, table rows with header', () => {
  const passages = chunkBlocks([
    { text: 'Para ver la hora escriba lo siguiente:', headings: ['Guía'] },
    { kind: 'code', text: '$ date   -u\n$ date -R', headings: ['Guía'] },
    { kind: 'list-item', text: 'Abra la terminal.', headings: ['Guía'] },
    row(['`date`', 'muestra la hora'], ['orden', 'acción'], 'Órdenes'),
    row(['a|b', 'tubería'], ['orden', 'acción'], 'Órdenes'),
  ]);
  assert.equal(passages.length, 2);
  const prose = parseUnits(passages[0]!.text);
  assert.deepEqual(
    prose.map((u) => [u.kind, u.text]),
    [
      ['prose', 'Para ver la hora escriba lo siguiente:'],
      ['code', '$ date   -u\n$ date -R'],
      ['list-item', 'Abra la terminal.'],
    ],
  );
  assert.deepEqual(passages[1]!.headings, ['Guía', 'Órdenes'], 'the caption extends the heading path of the table');
  const rows = parseUnits(passages[1]!.text);
  assert.deepEqual(
    rows.map((u) => [u.cells, u.header]),
    [
      [
        ['`date`', 'muestra la hora'],
        ['orden', 'acción'],
      ],
      [
        ['a|b', 'tubería'],
        ['orden', 'acción'],
      ],
    ],
  );
});

test('a long table is cut into small passages, each repeating the header', () => {
  const header = ['orden', 'acción'];
  const blocks = Array.from({ length: 40 }, (_, i) =>
    row([`orden${i} --opción`, `hace la tarea número ${i} del sistema`], header),
  );
  const passages = chunkBlocks(blocks);
  assert.ok(passages.length >= 5, `${passages.length} passages`);
  for (const p of passages) {
    assert.ok(p.text.length <= 600, `table passage of ${p.text.length} chars`);
    assert.match(p.text, /^\| orden \| acción \|\n\|---\|---\|\n/);
  }
  assert.equal(passages.flatMap((p) => parseUnits(p.text)).length, 40);
});

test('a code block longer than a passage is cut between lines, never inside one', () => {
  const code = Array.from({ length: 100 }, (_, i) => `$ orden --paso ${i}`).join('\n');
  const passages = chunkBlocks([{ kind: 'code', text: code }], { targetChars: 500, maxChars: 800, minChars: 100 });
  assert.ok(passages.length > 1);
  const lines = passages.flatMap((p) => parseUnits(p.text)).flatMap((u) => u.text.split('\n'));
  assert.deepEqual(lines, code.split('\n'));
});

test('serialised kinds read as light Markdown', () => {
  assert.equal(serializeBlock({ kind: 'list-item', text: 'uno' }), '- uno');
  assert.equal(serializeBlock({ kind: 'list-item', text: '2. dos' }), '2. dos');
  assert.equal(serializeBlock({ kind: 'code', text: 'ls -l' }), '```\nls -l\n```');
  assert.equal(serializeBlock(row(['a', 'b'])), '| a | b |');
});
