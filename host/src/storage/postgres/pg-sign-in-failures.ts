// Failed sign-ins in PostgreSQL, when no Redis is configured: studio/sign-in-failures.ts's statements.
import type { SignInFailureRepository } from '../port/sign-in-failure-repository.js';
import type { Pool } from './pg-driver.js';

export class PgSignInFailures implements SignInFailureRepository {
  constructor(private readonly pool: Pool) {}

  async since(subject: string, since: number): Promise<number[]> {
    const r = await this.pool.query<{ at: number }>(
      'SELECT at FROM sign_in_failures WHERE subject = $1 AND at > $2 ORDER BY at',
      [subject, since],
    );
    return r.rows.map((row) => row.at);
  }

  async add(subjects: readonly string[], at: number): Promise<void> {
    await this.pool.query('INSERT INTO sign_in_failures (subject, at) SELECT unnest($1::text[]), $2', [subjects, at]);
  }

  async clear(subject: string): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE subject = $1', [subject]);
  }

  async forgetBefore(before: number): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE at <= $1', [before]);
  }
}
