import { createToken } from '@cerebro/sdk';
import type { SpaceWithModules } from './directory-repository.js';

/**
 * The one synchronous read left in the directory's port, only for the sdk's deprecated synchronous
 * `SpaceDirectory.get` and `hasModule` (plugins written before sdk 2.1; every first-party caller uses `find` and
 * `moduleEnabled`). It goes away with those methods in the sdk's next major; a host on a backend that cannot read
 * synchronously does not offer them.
 */
export interface SyncSpaceReader {
  spaceNow(id: string): SpaceWithModules | undefined;
}

export const SyncSpaceReaderToken = createToken<SyncSpaceReader>('host:sync-space-reader');
