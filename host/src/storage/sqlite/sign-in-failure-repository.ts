import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { SignInFailureRepository } from '../port/sign-in-failure-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Failed sign-ins in the `sign_in_failures` table. */
@injectable()
export class SqliteSignInFailureRepository implements SignInFailureRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      since: () =>
        db
          .prepare<[string, number], number>('SELECT at FROM sign_in_failures WHERE subject = ? AND at > ? ORDER BY at')
          .pluck(),
      add: () => db.prepare<[string, number]>('INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)'),
      clear: () => db.prepare<[string]>('DELETE FROM sign_in_failures WHERE subject = ?'),
      forget: () => db.prepare<[number]>('DELETE FROM sign_in_failures WHERE at <= ?'),
    });
  }

  async since(subject: string, since: number): Promise<number[]> {
    return this.stmts.since.all(subject, since);
  }

  async add(subjects: readonly string[], at: number): Promise<void> {
    this.db
      .transaction(() => {
        for (const subject of subjects) this.stmts.add.run(subject, at);
      })
      .immediate();
  }

  async clear(subject: string): Promise<void> {
    this.stmts.clear.run(subject);
  }

  async forgetBefore(before: number): Promise<void> {
    this.stmts.forget.run(before);
  }
}
