// The labelled questions answer-or-decline is trained and checked on, each corpus indexed into a space of its own:
// the shared QA set (../shared/qa: debian-handbook and four business documents; see its README) and the project's own
// set (preguntas.json, over the Debian reference and the FreedomBox manual). Used by the calibration script.
import Database from 'better-sqlite3';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, cerebro, indexCorpora, openDb } from '../support/cerebro-corpus.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Where the shared set is: CEREBRO_QA_DIR, else ../shared/qa beside the checkout, else /work/shared/qa. */
export function sharedSetDir() {
  const candidates = [process.env.CEREBRO_QA_DIR, join(REPO, '../shared/qa'), '/work/shared/qa'].filter(Boolean);
  const found = candidates.find((d) => existsSync(join(d, 'preguntas.json')));
  if (!found) {
    console.error(`labelled sets: the shared QA set was not found (tried ${candidates.join(', ')}); set CEREBRO_QA_DIR.`);
    process.exit(1);
  }
  return found;
}

const HANDBOOK_DIR = '/usr/share/doc/debian-handbook/html/es-ES';
const MEDIA = { md: 'text/markdown', html: 'text/html', csv: 'text/csv' };

/** The files of one corpus of the shared set. */
function sharedCorpusFiles(dir, corpus) {
  if (corpus === 'debian-handbook') {
    if (!existsSync(HANDBOOK_DIR)) {
      console.error(`labelled sets: ${HANDBOOK_DIR} not found; install the Debian package debian-handbook.`);
      process.exit(1);
    }
    return readdirSync(HANDBOOK_DIR).filter((f) => f.endsWith('.html')).sort().map((name) => ({ name, path: join(HANDBOOK_DIR, name) }));
  }
  const set = JSON.parse(readFileSync(join(dir, 'preguntas.json'), 'utf8'));
  const fuente = set.preguntas.find((q) => q.corpus === corpus).fuente;
  return [{ name: basename(fuente), path: join(dir, fuente) }];
}

/** Lower case, citation markers dropped, runs of white space made one: how answers and keys are compared. */
export const normalise = (text) => text.replace(/\s\[\d+\]/g, '').toLowerCase().replace(/\s+/g, ' ');

/**
 * Every labelled question: `{ id, corpus, split, question, kind, answerable, keys, every, history }`. `every`: the answer
 * must hold every key (shared set) or one of them (project set). Conversation turns come with the turns before them
 * (`history`, as the engine receives it: the earlier questions and the answers the engine gave are filled in by the
 * caller, so `history` holds only the earlier questions here).
 */
export function labelledQuestions() {
  const dir = sharedSetDir();
  const shared = JSON.parse(readFileSync(join(dir, 'preguntas.json'), 'utf8'));
  const own = JSON.parse(readFileSync(new URL('preguntas.json', import.meta.url), 'utf8'));
  const out = shared.preguntas.map((q) => ({
    id: q.id, corpus: q.corpus, split: q.split, question: q.pregunta, kind: q.tipo, answerable: q.respondible,
    keys: q.claves ?? [], every: true, turn: null,
  }));
  for (const c of shared.conversaciones) {
    c.turnos.forEach((t, i) => out.push({
      id: `${c.id}#${i + 1}`, corpus: c.corpus, split: c.split, question: t.pregunta, kind: null, answerable: t.respondible,
      keys: t.claves ?? [], every: true, turn: { conversation: c.id, index: i, earlier: c.turnos.slice(0, i).map((p) => p.pregunta) },
    }));
  }
  own.con_respuesta.forEach((q, i) => out.push({
    id: `propia-${i + 1}`, corpus: 'propio', split: 'dev', question: q.pregunta, kind: q.tipo ?? null, answerable: true, keys: q.claves, every: false, turn: null,
  }));
  own.sin_respuesta.forEach((q, i) => out.push({
    id: `propia-sin-${i + 1}`, corpus: 'propio', split: 'dev', question: q.pregunta, kind: null, answerable: false, keys: [], every: false, turn: null,
  }));
  return out;
}

/** Whether an answer text holds the keys of a labelled question. */
export function holdsKeys(text, q) {
  const t = normalise(text);
  const has = (k) => t.includes(normalise(k));
  return q.every ? q.keys.every(has) : q.keys.some(has);
}

/**
 * One engine with every corpus indexed, each in the space named after it. With `CEREBRO_SETS_CACHE` (a file path),
 * the indexed database is saved there the first time and reused after (delete it when indexing changes).
 */
export async function indexedSets(engineOptions = {}) {
  const cacheFile = process.env.CEREBRO_SETS_CACHE;
  if (cacheFile && existsSync(cacheFile)) {
    const db = new Database(readFileSync(cacheFile));
    db.pragma('foreign_keys = ON');
    const engine = new cerebro.CerebroEngine({ db, ...engineOptions });
    engine.start();
    return { db, engine };
  }
  const db = openDb();
  const engine = new cerebro.CerebroEngine({ db, ...engineOptions });
  engine.start();
  const dir = sharedSetDir();
  const shared = JSON.parse(readFileSync(join(dir, 'preguntas.json'), 'utf8'));
  for (const corpus of Object.keys(shared.corpus)) {
    for (const f of sharedCorpusFiles(dir, corpus)) {
      engine.documents.submit(corpus, { ...f, mediaType: MEDIA[f.name.split('.').pop()] ?? 'text/plain', bytes: 0 });
    }
  }
  await engine.documents.idle();
  await indexCorpora(engine, 'propio', [CORPORA.guia, CORPORA.freedombox]);
  if (cacheFile) writeFileSync(cacheFile, db.serialize());
  return { db, engine };
}

/**
 * Asks a labelled question as a user would: a conversation turn after its earlier turns, in one conversation (the
 * engine receives the earlier questions and its own answers as history). Returns the engine's answer.
 */
export async function askLabelled(engine, q, options = {}) {
  const history = [];
  for (const earlier of q.turn?.earlier ?? []) {
    const a = await engine.ask({ space: q.corpus, question: earlier, options, history: [...history] });
    history.push({ role: 'user', content: earlier }, { role: 'assistant', content: a.text });
  }
  return engine.ask({ space: q.corpus, question: q.question, options, history });
}
