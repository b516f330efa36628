import { createToken } from '@cerebro/sdk';
import type { LoginRow } from '../../studio/studio-services.js';

/**
 * An owner's sign-in data: email (stored normalised, unique among owners) and password digest. Deleted owners are
 * never returned.
 *
 * Guarantees: `setPassword` changes the digest and revokes the owner's other console sessions in ONE transaction,
 * so no old session outlives a password change, whichever process serves it.
 */
export interface OwnerLoginRepository {
  byId(ownerId: string): Promise<LoginRow | undefined>;
  /** By the normalised email. */
  byEmail(email: string): Promise<LoginRow | undefined>;
  setEmail(ownerId: string, email: string): Promise<void>;
  setName(ownerId: string, name: string): Promise<void>;
  /**
   * Sets the password digest (changed at `at`, ISO) and revokes every open session of the owner but `keep` (all of
   * them when null). Returns how many sessions were revoked.
   */
  setPassword(ownerId: string, digest: string, at: string, keep: string | null): Promise<number>;
}

export const OwnerLoginRepositoryToken = createToken<OwnerLoginRepository>('host:owner-login-repository');
