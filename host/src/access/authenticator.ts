import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { Caller } from './caller.js';
import { parseBearer, secretMatches } from './credentials.js';
import type { AccessDirectory } from './directory.js';

/**
 * RFC 6750 section 3: a request without credentials gets the bare challenge; one with a credential that is
 * malformed, unknown, revoked or of a deleted owner gets `error="invalid_token"`. Frozen constants: the 401 path
 * allocates no header object of its own.
 */
const NO_CREDENTIAL_CHALLENGE = Object.freeze({ 'WWW-Authenticate': 'Bearer realm="cerebro"' });
const INVALID_TOKEN_CHALLENGE = Object.freeze({ 'WWW-Authenticate': 'Bearer realm="cerebro", error="invalid_token"' });
const invalidKey = () => apiError('invalid_key', undefined, INVALID_TOKEN_CHALLENGE);

/**
 * Turns the Authorization header into a caller, reading the credential, its owner and their state afresh on
 * every request: a revoked key or a deleted owner answers 401 from the very next request.
 */
@injectable()
export class Authenticator {
  private readonly keyCallers = new WeakMap<object, Caller>();

  constructor(@inject(HostTokens.Directory) private readonly directory: AccessDirectory) {}

  authenticate(header: string | undefined): Caller {
    if (!header) throw apiError('missing_key', undefined, NO_CREDENTIAL_CHALLENGE);
    const parsed = parseBearer(header);
    if (!parsed) {
      secretMatches('x'.repeat(43), undefined); // same work as a real check: malformed keys are not faster
      throw invalidKey();
    }
    if (parsed.kind === 'key') {
      const row = this.directory.keyCredential(parsed.id);
      const valid = secretMatches(parsed.secret, row?.secret_digest);
      if (!row || !valid || row.revoked_at || row.owner_deleted_at) throw invalidKey();
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
      if (!row || !valid || row.revoked_at || !row.owner_id) throw invalidKey();
      const owner = this.directory.owner(row.owner_id);
      if (!owner || owner.deleted_at) throw invalidKey();
      return { kind: 'console', ownerId: owner.id, sessionId: row.id, ownerReadOnly: owner.read_only === 1 };
    }
    const row = this.directory.operator(parsed.id);
    const valid = secretMatches(parsed.secret, row?.secret_digest);
    if (!row || !valid || row.revoked_at) throw invalidKey();
    return { kind: 'operator', operatorId: row.id };
  }
}
