#!/usr/bin/env node
// Why conversation turns miss (run after `tsc -b`): every turn of the shared set's conversations (filtered as
// shared-qa.mjs filters), whether it was read as a follow-up, the text retrieval searched, the judged passages (decision
// probability, KEY when a passage holds every key) and the answer. `CEREBRO_QA_SPLIT=dev` to look only at dev.
import { holdsEveryKey, indexSharedQa, spaceOf } from './shared-qa.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { dependsOnPrevious, retrievalQuery } = await import(new URL('answer/follow-up.js', dist).href);

const qa = await indexSharedQa();
const answerer = qa.engine.answerer ?? null;
let ok = 0;
let n = 0;
for (const c of qa.conversations) {
  const history = [];
  console.log(`== ${c.id} (${c.split}, ${c.corpus})`);
  for (const turn of c.turnos) {
    const request = { space: spaceOf(c.corpus), question: turn.pregunta, history: [...history] };
    const answer = await qa.engine.ask(request);
    const good = turn.respondible ? answer.found && holdsEveryKey(answer.text, turn.claves) : !answer.found;
    n++;
    if (good) ok++;
    const query = retrievalQuery(request);
    console.log(
      `${good ? 'OK  ' : 'MISS'} ${turn.pregunta}  [follow-up ${dependsOnPrevious(turn.pregunta)}] keys ${JSON.stringify(turn.claves)}`,
    );
    if (query !== turn.pregunta) console.log(`  searched: ${query.replace(/\n/g, ' / ')}`);
    if (answerer?.judge) {
      const judged = await answerer.judge(request);
      for (const s of judged.pool.slice(0, 5))
        console.log(
          `  ${s.score.toFixed(3)} ${turn.claves.length && holdsEveryKey(`${s.hit.headings.join(' ')} ${s.hit.text}`, turn.claves) ? 'KEY' : '   '} ${s.hit.headings.join(' › ').slice(0, 90)} | ${s.hit.text.replace(/\s+/g, ' ').slice(0, 80)}`,
        );
    }
    console.log(`  => ${answer.found ? '' : '(declined) '}${answer.text.replace(/\s+/g, ' ').slice(0, 200)}`);
    history.push({ role: 'user', content: turn.pregunta }, { role: 'assistant', content: answer.text });
  }
}
console.log(`turns ${ok}/${n}`);
await qa.engine.stop();
qa.db.close();
