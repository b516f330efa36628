import { createToken } from '@cerebro/sdk';
import type { SpaceWithModules } from './directory-repository.js';

/**
 * The one synchronous read left in the directory's port: the sdk's `SpaceDirectory` and `CreditRefunds` are
 * synchronous services plugins call today, so they need a space without awaiting. It goes away when those sdk
 * services become async (a new sdk major); a backend that cannot read synchronously serves it from a snapshot.
 */
export interface SyncSpaceReader {
  spaceNow(id: string): SpaceWithModules | undefined;
}

export const SyncSpaceReaderToken = createToken<SyncSpaceReader>('host:sync-space-reader');
