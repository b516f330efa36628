#!/usr/bin/env node
// Builds host/src/cerebro/text/background-es.json: how many ~100-word chunks of general Spanish text hold each index
// term (the engine's own Spanish terms: analyzer.ts `indexTerms`). It is the background word-frequency prior every
// space shares (text/background-prior.ts): in a small space (a one-document FAQ) nearly every word is rare, so the
// space's own counts cannot tell a generic word ("tiempo", "precio") from a topic word; general Spanish can.
//
// Source: the Debian package `fortunes-es` (quotations, proverbs, sayings: everyday Spanish), none of the measured sets
// (not debian-handbook, debian-reference-es nor freedombox-doc-es). Also measured, and dropped: adding `manpages-es`
// and the Spanish gettext catalogues of the installed packages (/usr/share/locale/es/LC_MESSAGES/*.mo). That prior
// is technical: "sistema", "archivo", "usuario", "paquete" came out generic, so a small technical space lost its
// topic words; on the shared QA set's dev split it answered as many questions but held fewer conversation turns
// (54.2 % against 62.5 %), and the project's own set fell from 76.7 % to 75.7 %.
//   apt-get install fortunes-es && npm run build && node scripts/build-background-prior.mjs
// Terms held by fewer than MIN_DOCS chunks are not stored: the prior treats them as rare, as it does unseen ones.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { indexTerms } = await import(new URL('../host/dist/cerebro/text/analyzer.js', import.meta.url).href);
const OUT = fileURLToPath(new URL('../host/src/cerebro/text/background-es.json', import.meta.url));
const FORTUNES = '/usr/share/games/fortunes/es';
/** Words per chunk: about a passage of the engine's chunker. */
const CHUNK_WORDS = 100;
const MIN_DOCS = 3;

const files = (dir, keep) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map((f) => join(dir, String(f)))
        .filter((f) => lstatSync(f).isFile() && keep(f))
        .sort()
    : [];

/** Fortune files: entries separated by lines holding only "%". */
const fortunes = files(FORTUNES, (f) => f.endsWith('.fortunes') && !f.includes('/off/')).map((f) =>
  readFileSync(f, 'utf8').replace(/^%$/gm, '\n'),
);

const df = new Map();
let documents = 0;
for (const text of fortunes) {
  const terms = indexTerms(text, 'es');
  for (let at = 0; at < terms.length; at += CHUNK_WORDS) {
    documents++;
    for (const t of new Set(terms.slice(at, at + CHUNK_WORDS))) df.set(t, (df.get(t) ?? 0) + 1);
  }
}
const kept = [...df]
  .filter(([t, n]) => n >= MIN_DOCS && !/^\d+$/.test(t))
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
writeFileSync(
  OUT,
  `${JSON.stringify({
    sources: `fortunes-es ${fortunes.length} files`,
    chunkWords: CHUNK_WORDS,
    documents,
    df: Object.fromEntries(kept),
  })}\n`,
);
console.log(`${documents} chunks, ${df.size} terms, ${kept.length} kept (>= ${MIN_DOCS} chunks) -> ${OUT}`);
