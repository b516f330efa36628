import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { scanWords } from './word-scanner.js';

/** What the analyzer did before the scanner: the Unicode regex, then a split on the apostrophe. */
function regexWords(text: string, max: number): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    for (const part of m[0].split(/['’]/)) if (part.length > 0 && part.length <= max) out.push(part);
  }
  return out;
}

test('the scanner splits words exactly as the Unicode regex did, on hard cases', () => {
  const cases = [
    "l'ordinateur d’anne y la configuración",
    "l'h2 a''b x'1 o'neil's rock'n'roll ' '' ’",
    'año 2024: ½ taza, x² y ⅓; ǆ ǅ — 𝐀𝐁 💡 emoji 😀x 中文字 العربية ελληνικά',
    'combining: e\u0301 n\u0303o (marks are not letters)',
    'sub\u00ADtle\u200Bzero width',
    `${'a'.repeat(40)} ${'b'.repeat(41)} ${'c'.repeat(40)}'${'d'.repeat(41)}`,
    "trailing apostrophe' and lone surrogate \ud83d end",
    '',
  ];
  for (const text of cases) assert.deepEqual(scanWords(text, 40), regexWords(text, 40), text);
});

const REFERENCE = '/usr/share/debian-reference/debian-reference.es.txt.gz';

test('the scanner agrees with the regex on a real document', (t) => {
  let text: string;
  try {
    text = gunzipSync(readFileSync(REFERENCE)).toString('utf8').toLowerCase();
  } catch {
    t.skip(`${REFERENCE} is missing (Debian package debian-reference-es)`);
    return;
  }
  const expected = regexWords(text, 40);
  assert.ok(expected.length > 100_000);
  assert.deepEqual(scanWords(text, 40), expected);
});

test('the scanner agrees with the regex on accented and non-Latin text', () => {
  const mixed = 'Ça déjà vu — naïve façade, Straße, ÀÉÎÕÜ, İstanbul, ΣΊΣΥΦΟΣ, l’été, d’Artagnan'.toLowerCase();
  assert.deepEqual(scanWords(mixed, 40), regexWords(mixed, 40));
});
