// The corpus of the search-parity test: the project's question sets and the documents they are about, prepared by
// the engine's own pipeline (extract, chunk, analyse), one space per corpus as the benches index them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PreparedPassage, PrepareResult } from '../../../cerebro/index.js';

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The shared QA set beside the checkout (or one level higher from a worktree), as bench/respuestas/shared-qa.mjs. */
const QA_DIR =
  process.env.CEREBRO_QA_DIR ??
  [join(REPO, '..', 'shared', 'qa'), join(REPO, '..', '..', 'shared', 'qa')].find((d) => existsSync(d)) ??
  join(REPO, '..', 'shared', 'qa');

export interface ParityDocument {
  id: string;
  name: string;
  lang: string;
  passages: PreparedPassage[];
}

export interface ParitySpace {
  space: string;
  files: string[];
  questions: string[];
}

/** The spaces, their files and their questions; a corpus whose files are missing is left out (and reported). */
export function paritySpaces(): { spaces: ParitySpace[]; missing: string[] } {
  const missing: string[] = [];
  const spaces: ParitySpace[] = [];
  const htmlIn = (dir: string, keep: (f: string) => boolean) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter(keep)
          .sort()
          .map((f) => join(dir, f))
      : [];
  // bench/respuestas/preguntas.json: about debian-reference-es and freedombox-doc-es (bench/support/cerebro-corpus.mjs).
  const bench = JSON.parse(readFileSync(join(REPO, 'bench', 'respuestas', 'preguntas.json'), 'utf8')) as {
    con_respuesta: { pregunta: string }[];
    sin_respuesta: { pregunta: string }[];
  };
  const own = [
    ...htmlIn('/usr/share/debian-reference', (f) => /^(ch\d+|apa|pr01)\.es\.html$/.test(f)),
    ...htmlIn(
      '/usr/share/freedombox/manual/es',
      (f) => f.endsWith('.part.html') && !/^(Manual|freedombox-manual)\.part\.html$/.test(f),
    ),
  ];
  if (own.length > 0) {
    spaces.push({
      space: 'propio',
      files: own,
      questions: [...bench.con_respuesta, ...bench.sin_respuesta].map((q) => q.pregunta),
    });
  } else missing.push('debian-reference-es / freedombox-doc-es');
  const qaFile = join(QA_DIR, 'preguntas.json');
  if (!existsSync(qaFile)) {
    missing.push(`shared/qa (${QA_DIR})`);
    return { spaces, missing };
  }
  const qa = JSON.parse(readFileSync(qaFile, 'utf8')) as {
    corpus: Record<string, { archivo?: string; ruta?: string }>;
    preguntas: { corpus: string; fuente: string; pregunta: string }[];
    conversaciones: { corpus: string; turnos: { pregunta: string }[] }[];
  };
  for (const [name, corpus] of Object.entries(qa.corpus)) {
    const questions = [
      ...qa.preguntas.filter((q) => q.corpus === name).map((q) => q.pregunta),
      ...qa.conversaciones.filter((c) => c.corpus === name).flatMap((c) => c.turnos.map((t) => t.pregunta)),
    ];
    // The handbook is large: the pages its questions are about (`fuente` is relative to the package's folder).
    const files = corpus.archivo
      ? [join(QA_DIR, corpus.archivo)]
      : [
          ...new Set(
            qa.preguntas
              .filter((q) => q.corpus === name && q.fuente?.endsWith('.html'))
              .map((q) => join(corpus.ruta!, '..', '..', q.fuente)),
          ),
        ].sort();
    const present = files.filter((f) => existsSync(f));
    if (present.length === 0) missing.push(name);
    else spaces.push({ space: name, files: present, questions });
  }
  return { spaces, missing };
}

/**
 * A file prepared by the engine as an upload would be, by `prepare` (the engine's prepareDocument, which the caller
 * imports itself: the engine's barrel leaves the extractors to the extraction threads).
 */
export async function prepareFile(
  path: string,
  ord: number,
  prepare: (task: { path: string; name: string }) => Promise<PrepareResult>,
): Promise<ParityDocument> {
  const name = path.split('/').pop()!;
  const result = await prepare({ path, name });
  if (!result.ok) throw new Error(`${path}: ${result.error.reason}`);
  return {
    id: `doc${String(ord).padStart(3, '0')}`,
    name,
    lang: result.document.lang,
    passages: result.document.passages,
  };
}
