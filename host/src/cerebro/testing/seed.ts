// Puts a ready document with given passages straight into the index, bypassing extraction (for retrieval tests).
import type { SqliteDatabase } from '../../storage/database.js';
import { SqlitePassageIndexRepository } from '../../storage/sqlite/passage-index/passage-index-repository.js';
import { passageTerms } from '../extract/prepare.js';
import { PassageIndex } from '../index/passage-index.js';
import type { BackgroundPrior } from '../text/background-prior.js';
import { detectLanguage } from '../text/analyzer.js';

export interface SeedPassage {
  text: string;
  page?: number;
  headings?: string[];
}

/** The engine's passage index over a SQLite database (its repository matches on the calling thread). */
export function sqlitePassageIndex(db: SqliteDatabase, prior?: BackgroundPrior): PassageIndex {
  return new PassageIndex(new SqlitePassageIndexRepository(db), ...(prior ? [prior] : []));
}

export async function seedDocument(
  db: SqliteDatabase,
  index: PassageIndex,
  space: string,
  name: string,
  passages: SeedPassage[],
): Promise<{ id: string; passageIds: number[] }> {
  const id = `doc-${name}`;
  const t = new Date().toISOString();
  const lang = detectLanguage(passages.map((p) => p.text).join('\n'));
  db.prepare(
    `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, progress, created_at, updated_at, queued_at, passages, lang)
     VALUES (?, ?, ?, 'text/plain', '/dev/null', 'ready', 1, ?, ?, ?, ?, ?)`,
  ).run(space, id, name, t, t, t, passages.length, lang);
  const passageIds = await index.repository.replaceDocument(
    space,
    id,
    passages.map((p, ord) => ({
      ord,
      text: p.text,
      page: p.page ?? null,
      headings: p.headings ?? [],
      ...passageTerms(p.text, p.headings ?? [], lang),
    })),
  );
  return { id, passageIds };
}
