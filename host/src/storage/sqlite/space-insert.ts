import type { SqliteDatabase } from '../database.js';
import type { NewSpaceRecord } from '../port/operator-directory-repository.js';

/**
 * The statements that write a new space and its modules, prepared once: the operator's creation and an owner's own
 * (within the allowance) write a space the same way. Run it inside the caller's transaction.
 */
export function spaceInsert(db: SqliteDatabase): (space: NewSpaceRecord) => void {
  const insertSpace = db.prepare(
    'INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const enableModule = db.prepare(
    'INSERT OR IGNORE INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)',
  );
  return (space) => {
    insertSpace.run(space.id, space.name, space.ownerId, space.accountId, space.trialEndsAt, space.createdAt);
    for (const module of space.modules) enableModule.run(space.id, module, space.createdAt);
  };
}
