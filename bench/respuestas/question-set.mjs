// The labelled question set (preguntas.json) and how an answer is judged against it. Shared by the answers
// benchmark, the key check and the calibration script.
import { readFileSync } from 'node:fs';
import { CORPORA, cerebro, indexCorpora, openDb } from '../support/cerebro-corpus.mjs';

const set = JSON.parse(readFileSync(new URL('preguntas.json', import.meta.url), 'utf8'));
export const ANSWERABLE = set.con_respuesta;
export const UNANSWERABLE = set.sin_respuesta;
export const SPACE = 'docs';

/** Lower case, citation markers dropped, runs of white space made one: how answers and keys are compared. */
export function normalise(text) {
  return text
    .replace(/\s\[\d+\]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

export function holdsKey(text, keys) {
  const t = normalise(text);
  return keys.some((k) => t.includes(normalise(k)));
}

/** A fresh engine with both Debian corpora indexed into one space. */
export async function indexedEngine() {
  const db = openDb();
  const engine = new cerebro.CerebroEngine({ db });
  engine.start();
  const indexMs = await indexCorpora(engine, SPACE, [CORPORA.guia, CORPORA.freedombox]);
  return { db, engine, indexMs };
}

/**
 * Asks every labelled question through the engine. Per question: its kind of label, whether it was answered, the
 * answer's words, whether the answer holds a key, and whether a passage in `fuentes` holds one.
 */
export async function askAll(engine, db, options = {}) {
  const passageText = db.prepare('SELECT headings, text FROM cerebro_passages WHERE id = ?');
  const sourceHoldsKey = (sources, keys) =>
    sources.some((s) => {
      const p = passageText.get(s.passageId);
      return p !== undefined && holdsKey(`${JSON.parse(p.headings).join(' ')} ${p.text}`, keys);
    });
  const out = [];
  for (const q of [...ANSWERABLE, ...UNANSWERABLE]) {
    const answer = await engine.ask({ space: SPACE, question: q.pregunta, options });
    const keys = q.claves ?? null;
    out.push({
      question: q.pregunta,
      kind: q.tipo ?? null,
      answerable: keys !== null,
      found: answer.found,
      words: answer.text.split(/\s+/).filter(Boolean).length,
      correct: keys !== null && answer.found && holdsKey(answer.text, keys),
      sourced: keys !== null && answer.found && sourceHoldsKey(answer.sources, keys),
      text: answer.text,
    });
  }
  return out;
}

/** The figures the benchmark prints, from `askAll`'s records. */
export function summarise(records) {
  const answerable = records.filter((r) => r.answerable);
  const unanswerable = records.filter((r) => !r.answerable);
  const words = records
    .filter((r) => r.found)
    .map((r) => r.words)
    .sort((a, b) => a - b);
  return {
    keyInAnswer: answerable.filter((r) => r.correct).length / answerable.length,
    keyInSources: answerable.filter((r) => r.sourced).length / answerable.length,
    declined: unanswerable.filter((r) => !r.found).length / unanswerable.length,
    medianWords: words.length ? words[Math.floor((words.length - 1) / 2)] : 0,
  };
}
