#!/usr/bin/env node
// `npm run bench -- qa-servidor`: the shared QA set (../shared/qa) asked through the real HTTP server, as a customer's
// program asks: each corpus uploaded to a space of its own (POST /api/rag/{espacio}/load_documents, 20 files a
// request), indexed, then every question sent to POST /api/rag/{espacio}/conversations with the space's key, and each
// conversation turn by turn with its `conversacion` id (the server keeps the earlier turns). Scored as the set's
// README says, with the same code as `npm run bench -- respuestas` (which drives the engine directly, handing it the
// history); when that bench's records are on disk (.bench/shared-qa-records.json), the questions whose verdict differs
// between the two are listed, so a gap between the engine and what the server answers shows up by name.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  RECORDS_FILE,
  corpusDocuments,
  holdsEveryKey,
  loadSharedQa,
  printScore,
  score,
  spaceOf,
  wordCount,
} from './respuestas/shared-qa.mjs';

const FILES_PER_REQUEST = 20;
const { startHost } = await import('@cerebro/host');
const dataDir = mkdtempSync(join(tmpdir(), 'cerebro-qa-servidor-'));
const host = await startHost({
  config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', discoverPlugins: false, bootstrapDemo: false },
});
const base = `http://127.0.0.1:${host.port}/api`;
try {
  const qa = loadSharedQa();
  const owner = await host.admin.createOwner({ name: 'Banco de preguntas', credits: 1_000_000 });
  const key = (await host.admin.issueKey(owner.id, 'qa', [], 'escribe')).token;
  const headers = { authorization: `Bearer ${key}` };
  const call = async (path, init = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    const body = await res.json();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const json = (method, body) => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  const t0 = performance.now();
  for (const corpus of qa.corpora) {
    const space = spaceOf(corpus);
    await host.admin.createSpace({ id: space, ownerId: owner.id, modules: ['api'] });
    // Hundreds of questions a minute: the space's default per-minute limit is not what is measured here.
    await call(`/companies/${space}/api-config`, json('PATCH', { limite_por_minuto: 1_000_000 }));
    const docs = corpusDocuments(corpus, qa.corpus[corpus]);
    for (let i = 0; i < docs.length; i += FILES_PER_REQUEST) {
      const form = new FormData();
      for (const doc of docs.slice(i, i + FILES_PER_REQUEST))
        form.append('archivos', new Blob([readFileSync(doc.path)], { type: doc.mediaType }), doc.name);
      await call(`/rag/${space}/load_documents`, { method: 'POST', body: form });
    }
  }
  for (const corpus of qa.corpora) {
    for (;;) {
      const status = await call(`/rag/${spaceOf(corpus)}/indexing_status`);
      if (status.listo) {
        const failed = status.documentos.filter((d) => d.estado !== 'listo');
        if (failed.length) throw new Error(`${corpus}: not indexed ${JSON.stringify(failed)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const indexedSeconds = (performance.now() - t0) / 1000;

  const records = [];
  const judge = (item, kind, extra, answer, ms) => {
    const answerable = item.respondible !== false;
    records.push({
      id: extra.id,
      split: extra.split,
      corpus: extra.corpus,
      kind,
      answerable,
      found: answer.encontrada,
      correct: answerable && answer.encontrada && holdsEveryKey(answer.respuesta, item.claves ?? []),
      words: answer.encontrada ? wordCount(answer.respuesta) : 0,
      ms,
    });
  };
  const ask = async (space, body) => {
    const t = performance.now();
    const answer = await call(`/rag/${space}/conversations`, json('POST', body));
    return { answer, ms: performance.now() - t };
  };
  /** Answerable questions whose keys are all in the top 5 passages of POST /rag/{espacio}/buscar. */
  const searched = new Map();
  for (const q of qa.questions) {
    const { answer, ms } = await ask(spaceOf(q.corpus), { pregunta: q.pregunta });
    judge(q, 'pregunta', q, answer, ms);
    if (q.respondible === false) continue;
    const found = await call(`/rag/${spaceOf(q.corpus)}/buscar`, json('POST', { pregunta: q.pregunta, limite: 5 }));
    searched.set(q.id, holdsEveryKey(found.pasajes.map((p) => p.texto).join('\n'), q.claves));
  }
  for (const c of qa.conversations) {
    let conversacion;
    for (const [i, turn] of c.turnos.entries()) {
      const { answer, ms } = await ask(spaceOf(c.corpus), {
        pregunta: turn.pregunta,
        ...(conversacion ? { conversacion } : {}),
      });
      conversacion = answer.conversacion;
      judge(turn, 'turno', { id: `${c.id}#${i + 1}`, split: c.split, corpus: c.corpus }, answer, ms);
    }
  }

  const ms = records.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `== Shared QA set through the HTTP server: ${qa.questions.length} questions, ${qa.conversations.length} conversations; uploaded and indexed in ${indexedSeconds.toFixed(1)} s; per request p50 ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms, p99 ${ms[Math.floor(ms.length * 0.99)].toFixed(1)} ms ==`,
  );
  printScore(score(records));
  if (existsSync(RECORDS_FILE)) {
    const engine = new Map(JSON.parse(readFileSync(RECORDS_FILE, 'utf8')).map((r) => [r.id, r]));
    const verdict = (r) => (r.answerable ? r.correct : !r.found);
    const differ = records.filter((r) => engine.has(r.id) && verdict(engine.get(r.id)) !== verdict(r));
    const both = [...searched].filter(([id]) => engine.get(id)?.engineRecall !== undefined);
    console.log(
      `\nKeys in the top 5 passages of POST /rag/{espacio}/buscar: ${both.filter(([, held]) => held).length} of ${both.length} answerable questions; in the engine's top 5 (its records): ${both.filter(([id]) => engine.get(id).engineRecall).length}; differing: ${
        both
          .filter(([id, held]) => engine.get(id).engineRecall !== held)
          .map(([id]) => id)
          .join(', ') || 'none'
      }`,
    );
    console.log(
      `Against the engine's records of \`npm run bench -- respuestas\` (${RECORDS_FILE}): ${differ.length} of ${records.filter((r) => engine.has(r.id)).length} verdicts differ${differ.length ? `: ${differ.map((r) => `${r.id} (servidor ${verdict(r) ? 'bien' : 'mal'})`).join(', ')}` : ''}`,
    );
  }
} finally {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
}
