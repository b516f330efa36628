#!/usr/bin/env node
// Lists the candidate answer units of one question with their scores, best first (run after `tsc -b`):
// `node bench/respuestas/explain.mjs "¿Cómo …?" [passages]`. Marks the candidates that hold one of its keys when the
// question is in the labelled set.
import { ANSWERABLE, SPACE, holdsKey, indexedEngine } from './question-set.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { scorePassages, searchText } = await import(new URL('answer/extractive.js', dist).href);
const { passageCandidates } = await import(new URL('answer/candidates.js', dist).href);
const { questionKind } = await import(new URL('answer/question-kind.js', dist).href);
const { askedName } = await import(new URL('answer/asked-name.js', dist).href);

const question = process.argv[2];
const depth = Number(process.argv[3] ?? 5);
const keys = ANSWERABLE.find((q) => q.pregunta === question)?.claves ?? [];
const { db, engine } = await indexedEngine();
const { hits, groups } = await engine.retriever.retrieve(SPACE, searchText({ space: SPACE, question }), depth);
const kind = questionKind(question);
const { relevance, scored } = await scorePassages(engine.index, groups, hits, undefined, {
  space: SPACE,
  text: question,
  kind,
});
console.log(`kind ${kind}; groups ${JSON.stringify(groups)}`);
for (const { hit, score } of scored)
  console.log(
    `passage ${hit.rank} relevance ${score.toFixed(3)} ${holdsKey(hit.text, keys) ? 'KEY' : ''} ${hit.headings.join(' › ')}`,
  );
const candidates = scored
  .flatMap(({ hit, score }) => passageCandidates(hit, score, relevance, kind, { asked: askedName(question) }))
  .sort((a, b) => b.score - a.score);
for (const c of candidates.slice(0, 15))
  console.log(
    `${c.score.toFixed(3)} p${c.hit.rank} ${c.unit.kind} ${holdsKey(c.text, keys) ? 'KEY ' : ''}${c.text.replace(/\s+/g, ' ').slice(0, 160)}`,
  );
const keyed = candidates.findIndex((c) => holdsKey(c.text, keys));
if (keyed >= 10)
  console.log(
    `first key candidate at ${keyed + 1}: ${candidates[keyed].score.toFixed(3)} ${candidates[keyed].text.slice(0, 160)}`,
  );
await engine.stop();
db.close();
