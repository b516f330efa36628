#!/usr/bin/env node
// Why answers miss (run after `tsc -b`): for every answerable question whose answer lacks a key, its kind, the rank of
// the first retrieved passage holding a key among the top 30 (a retrieval miss when it is beyond the passages the
// engine reads, a composition miss otherwise) and the answer given. Figures are split into the tuning part and the
// held-out part (every 5th question of each list), so a change that only helps the questions looked at shows.
// `--all` lists hits too; `--held-out` lists only held-out questions.
import { ANSWERABLE, SPACE, UNANSWERABLE, holdsKey, indexedEngine } from './question-set.mjs';
import { cerebro } from '../support/cerebro-corpus.mjs';

const DEPTH = 30;
const showAll = process.argv.includes('--all');
const heldOutOnly = process.argv.includes('--held-out');
/** The fixed held-out rule: every 5th question (positions 4, 9, …) of each list. */
const heldOut = (i) => i % 5 === 4;
/** Answer options to try, e.g. `--opt passages=12 --opt maxSentences=2`. */
const options = {};
process.argv.forEach((a, i) => {
  if (a !== '--opt') return;
  const [k, v] = process.argv[i + 1].split('=');
  options[k] = Number(v);
});

const { db, engine } = await indexedEngine();
const passages = options.passages ?? cerebro.DEFAULT_ANSWER_OPTIONS.passages;
const tally = {
  tune: { n: 0, ok: 0, retrieval: 0, composition: 0, declined: 0, u: 0, uDeclined: 0 },
  held: { n: 0, ok: 0, retrieval: 0, composition: 0, declined: 0, u: 0, uDeclined: 0 },
};
const words = [];
for (const [i, q] of ANSWERABLE.entries()) {
  const part = heldOut(i) ? tally.held : tally.tune;
  const answer = await engine.ask({ space: SPACE, question: q.pregunta, options });
  const ok = answer.found && holdsKey(answer.text, q.claves);
  if (answer.found) words.push(answer.text.split(/\s+/).filter(Boolean).length);
  part.n++;
  if (ok) part.ok++;
  const { hits } = await engine.retriever.retrieve(SPACE, q.pregunta, DEPTH);
  const rank = hits.findIndex((h) => holdsKey(`${h.headings.join(' ')} ${h.text}`, q.claves)) + 1;
  if (!ok) {
    if (!answer.found) part.declined++;
    if (rank === 0 || rank > passages) part.retrieval++;
    else part.composition++;
  }
  if ((ok && !showAll) || (heldOutOnly && !heldOut(i))) continue;
  const where = rank === 0 ? `not in top ${DEPTH}` : `key at rank ${rank}`;
  console.log(
    `${ok ? 'HIT ' : 'MISS'} [${q.tipo}] ${heldOut(i) ? '(held-out) ' : ''}${q.pregunta}\n  keys: ${q.claves.join(' | ')} — ${where}${answer.found ? '' : ' — declined'}\n  answer: ${answer.text.replace(/\s+/g, ' ').slice(0, 400)}`,
  );
}
for (const [i, q] of UNANSWERABLE.entries()) {
  const part = heldOut(i) ? tally.held : tally.tune;
  const answer = await engine.ask({ space: SPACE, question: q.pregunta, options });
  part.u++;
  if (!answer.found) part.uDeclined++;
  else if (!heldOutOnly || heldOut(i))
    console.log(
      `ANSWERED-UNANSWERABLE ${heldOut(i) ? '(held-out) ' : ''}${q.pregunta}\n  answer: ${answer.text.replace(/\s+/g, ' ').slice(0, 300)}`,
    );
}
await engine.stop();
db.close();
words.sort((a, b) => a - b);
for (const [name, t] of Object.entries(tally)) {
  console.log(
    `${name}: key in ${t.ok}/${t.n} (${((100 * t.ok) / t.n).toFixed(1)} %); misses: ${t.retrieval} retrieval, ${t.composition} composition (${t.declined} declined); unanswerable declined ${t.uDeclined}/${t.u}`,
  );
}
console.log(
  `all: key in ${tally.tune.ok + tally.held.ok}/${tally.tune.n + tally.held.n}; median words ${words[Math.floor((words.length - 1) / 2)]}`,
);
