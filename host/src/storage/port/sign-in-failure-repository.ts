import { createToken } from '@cerebro/sdk';

/**
 * Failed sign-ins in the shared database, one row per failure and subject (`e:<email>` or `i:<ip>`), so every
 * process sharing it counts the same failures.
 *
 * Guarantees: `add` records all its subjects or none (one transaction); a failure added by any process is counted
 * by every later `since`.
 */
export interface SignInFailureRepository {
  /** Times (ms) of the subject's failures after `since`, oldest first. */
  since(subject: string, since: number): Promise<number[]>;
  add(subjects: readonly string[], at: number): Promise<void>;
  /** Forgets a subject's failures (a successful sign-in of that email). */
  clear(subject: string): Promise<void>;
  /** Forgets every failure at or before `before`. */
  forgetBefore(before: number): Promise<void>;
}

export const SignInFailureRepositoryToken = createToken<SignInFailureRepository>('host:sign-in-failure-repository');
