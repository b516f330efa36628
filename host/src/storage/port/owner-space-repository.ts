import { createToken } from '@cerebro/sdk';
import type { NewSpaceRecord } from './operator-directory-repository.js';

/** How many spaces an owner may hold and still create one, and how many they hold. */
export interface SpaceAllowance {
  /** The owner's own allowance; null: the configured default applies. */
  own: number | null;
  /** Spaces the owner holds now (whoever created them). */
  spaces: number;
}

/** What asking to create a space within the allowance did. */
export type OwnSpaceOutcome = 'created' | 'over_allowance' | 'taken' | 'no_owner';

/**
 * An owner's own spaces (Studio's «Crear espacio» and «Renombrar»; issue #26 item 3) and the allowance the operator
 * sets for them (`owners.max_spaces`, migration 0020).
 *
 * Guarantees: `createWithin` counts the owner's spaces and writes the space with its modules in one transaction
 * that no other creation for the same owner interleaves with, so two requests at once never pass the allowance
 * together. Callers invalidate the access memo after a write.
 */
export interface OwnerSpaceRepository {
  /** The allowance of a live owner; undefined when there is none. */
  allowance(ownerId: string): Promise<SpaceAllowance | undefined>;
  /** Sets a live owner's own allowance (null: back to the default); false when there is no live owner. */
  setAllowance(ownerId: string, max: number | null): Promise<boolean>;
  /**
   * Creates the space when its owner (live) holds fewer spaces than their own allowance, or `defaultMax` when they
   * have none; nothing is written otherwise.
   */
  createWithin(space: NewSpaceRecord, defaultMax: number): Promise<OwnSpaceOutcome>;
  /** Sets a space's display name; false when the space does not exist. */
  rename(spaceId: string, name: string): Promise<boolean>;
}

export const OwnerSpaceRepositoryToken = createToken<OwnerSpaceRepository>('host:owner-space-repository');
