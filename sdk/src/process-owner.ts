// No Node import here: the sdk's index is also bundled for the browser (Studio), and this module must load there.

let owner: string | undefined;

/**
 * This process as the owner of holds, leases and runs in a database several processes share: its pid (for people
 * reading the rows) and a random part, so a later process that happens to get the same pid never mistakes an old
 * row for its own. The same string for the whole life of the process.
 */
export function processOwner(): string {
  if (owner === undefined) {
    const random = globalThis.crypto.getRandomValues(new Uint8Array(6));
    owner = `${process.pid}-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  }
  return owner;
}

/**
 * Whether the process that owns a hold, lease or run is certainly gone: its pid (the owner's first part) no longer
 * exists on this machine. Processes sharing a SQLite file share the machine, so a dead owner's work is taken back at
 * once instead of after its lease; a pid reused by another process only means waiting for the lease. Null (a row
 * written before owners were recorded) counts as gone.
 */
export function ownerIsGone(candidate: string | null): boolean {
  if (!candidate) return true;
  const pid = Number(candidate.slice(0, candidate.indexOf('-')));
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return candidate !== processOwner();
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
}
