import { randomBytes } from 'node:crypto';

/**
 * This process as the owner of holds and leases in the shared database: its pid (for people reading the rows) and
 * a random part, so a later process that happens to get the same pid never mistakes an old hold for its own.
 */
export const PROCESS_OWNER = `${process.pid}-${randomBytes(6).toString('hex')}`;

/**
 * Whether the process that owns a hold or lease is certainly gone: its pid (the owner's first part) no longer
 * exists on this machine. Processes sharing a SQLite file share the machine, so a dead owner's jobs and holds are
 * taken back at once instead of after their lease; a pid reused by another process only means waiting the lease.
 */
export function ownerIsGone(owner: string | null): boolean {
  if (!owner) return true;
  const pid = Number(owner.slice(0, owner.indexOf('-')));
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return owner !== PROCESS_OWNER;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
