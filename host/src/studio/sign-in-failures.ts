import type { SqliteDatabase } from '../storage/database.js';

/**
 * Failed sign-ins in the shared database, one row per failure and subject (`e:<email>` or `i:<ip>`), so every
 * process sharing it counts the same failures.
 */
export interface SignInFailures {
  /** Times (ms) of the subject's failures after `since`, oldest first. */
  since(subject: string, since: number): number[];
  add(subjects: readonly string[], at: number): void;
  /** Forgets a subject's failures (a successful sign-in of that email). */
  clear(subject: string): void;
  /** Forgets every failure at or before `before`. */
  forgetBefore(before: number): void;
}

export class SqliteSignInFailures implements SignInFailures {
  private readonly stmts;

  constructor(private readonly db: SqliteDatabase) {
    this.stmts = {
      since: db
        .prepare<[string, number], number>('SELECT at FROM sign_in_failures WHERE subject = ? AND at > ? ORDER BY at')
        .pluck(),
      add: db.prepare<[string, number]>('INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)'),
      clear: db.prepare<[string]>('DELETE FROM sign_in_failures WHERE subject = ?'),
      forget: db.prepare<[number]>('DELETE FROM sign_in_failures WHERE at <= ?'),
    };
  }

  since(subject: string, since: number): number[] {
    return this.stmts.since.all(subject, since);
  }

  add(subjects: readonly string[], at: number): void {
    this.db.transaction(() => {
      for (const subject of subjects) this.stmts.add.run(subject, at);
    })();
  }

  clear(subject: string): void {
    this.stmts.clear.run(subject);
  }

  forgetBefore(before: number): void {
    this.stmts.forget.run(before);
  }
}
