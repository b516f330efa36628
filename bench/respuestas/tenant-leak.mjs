#!/usr/bin/env node
// Tenant isolation, measured (run after `tsc -b`): the debian-handbook space is indexed alone and asked its questions,
// then the other corpora of the shared and the project's sets are indexed into the same database and it is asked
// again. Counts the questions whose top 5 passages, answer-or-decline decision or answer text moved: what the
// statistics still taken over the whole index (FTS5's choice of candidates) let other tenants change.
import { cerebro, openDb, CORPORA, indexCorpora } from '../support/cerebro-corpus.mjs';
import { QA_DIR, corpusDocuments } from './shared-qa.mjs';
import { labelledQuestions } from './labelled-sets.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const shared = JSON.parse(readFileSync(join(QA_DIR, 'preguntas.json'), 'utf8'));
const qs = labelledQuestions().filter((q) => q.corpus === 'debian-handbook' && q.turn === null);
async function run(engine) {
  const out = [];
  for (const q of qs) {
    const hits = (await engine.retriever.retrieve('debian-handbook', q.question, 5)).hits.map(
      (h) => `${h.documentName}#${h.ord}`,
    );
    const a = await engine.ask({ space: 'debian-handbook', question: q.question });
    out.push({ hits: hits.join(','), found: a.found, text: a.text });
  }
  return out;
}
const db = openDb();
const alone = new cerebro.CerebroEngine({ db });
alone.start();
for (const f of corpusDocuments('debian-handbook', shared.corpus['debian-handbook']))
  alone.documents.submit('debian-handbook', f);
await alone.documents.idle();
const a = await run(alone);
for (const [corpus, description] of Object.entries(shared.corpus))
  if (corpus !== 'debian-handbook')
    for (const f of corpusDocuments(corpus, description)) alone.documents.submit(corpus, f);
await alone.documents.idle();
await indexCorpora(alone, 'propio', [CORPORA.guia, CORPORA.freedombox]);
const b = await run(alone);
await alone.stop();
let hits = 0,
  found = 0,
  text = 0;
a.forEach((x, i) => {
  if (x.hits !== b[i].hits) hits++;
  if (x.found !== b[i].found) found++;
  if (x.text !== b[i].text) text++;
});
console.log(
  `handbook questions ${qs.length}: top-5 differs ${hits}, answered/declined differs ${found}, answer text differs ${text}`,
);
