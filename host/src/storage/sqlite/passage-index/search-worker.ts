// A search thread: runs the full-text part of a question (a MatchPlan) over its own read-only connection to the
// host database, so a slow match in a large space holds this thread, not the one answering every other request.
// WAL lets it read while the main thread writes; it sees what was committed when its query starts.
import Database from 'better-sqlite3';
import type { MatchedRow, MatchPlan } from '../../port/passage-index-repository.js';
import { MATCH_SQL, runMatchPlan } from './match-plan-sql.js';

export interface SearchTask {
  file: string;
  plan: MatchPlan;
}

const statements = new Map<string, Database.Statement>();

function matchStatement(file: string): Database.Statement {
  let stmt = statements.get(file);
  if (!stmt) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    stmt = db.prepare(MATCH_SQL);
    statements.set(file, stmt);
  }
  return stmt;
}

export default function search(task: SearchTask): MatchedRow[] {
  return runMatchPlan(matchStatement(task.file), task.plan);
}
