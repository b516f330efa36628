import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { Caller } from './caller.js';
import { parseBearer, secretMatches } from './credentials.js';
import type { AccessDirectory } from './directory.js';

/**
 * Turns the Authorization header into a caller, reading the credential, its owner and their state afresh on
 * every request: a revoked key or a deleted owner answers 401 from the very next request.
 */
@injectable()
export class Authenticator {
  private readonly keyCallers = new WeakMap<object, Caller>();

  constructor(@inject(HostTokens.Directory) private readonly directory: AccessDirectory) {}

  authenticate(header: string | undefined): Caller {
    if (!header) throw apiError('missing_key');
    const parsed = parseBearer(header);
    if (!parsed) {
      secretMatches('x'.repeat(43), undefined); // same work as a real check: malformed keys are not faster
      throw apiError('invalid_key');
    }
    if (parsed.kind === 'key') {
      const row = this.directory.keyCredential(parsed.id);
      const valid = secretMatches(parsed.secret, row?.secret_digest);
      if (!row || !valid || row.revoked_at || row.owner_deleted_at) throw apiError('invalid_key');
      // One frozen caller per memoised credential: a new one only after the credential itself was re-read.
      let caller = this.keyCallers.get(row);
      if (!caller) {
        caller = Object.freeze({
          kind: 'key' as const,
          ownerId: row.owner_id,
          ownerReadOnly: row.owner_read_only === 1,
          key: Object.freeze({ id: row.id, ownerId: row.owner_id, name: row.name, spaces: row.spaces, permission: row.permission }),
        });
        this.keyCallers.set(row, caller);
      }
      return caller;
    }
    if (parsed.kind === 'console') {
      const row = this.directory.session(parsed.id);
      const valid = secretMatches(parsed.secret, row?.secret_digest);
      if (!row || !valid || row.revoked_at || !row.owner_id) throw apiError('invalid_key');
      const owner = this.directory.owner(row.owner_id);
      if (!owner || owner.deleted_at) throw apiError('invalid_key');
      return { kind: 'console', ownerId: owner.id, sessionId: row.id, ownerReadOnly: owner.read_only === 1 };
    }
    const row = this.directory.operator(parsed.id);
    const valid = secretMatches(parsed.secret, row?.secret_digest);
    if (!row || !valid || row.revoked_at) throw apiError('invalid_key');
    return { kind: 'operator', operatorId: row.id };
  }
}
