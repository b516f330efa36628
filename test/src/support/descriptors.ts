// The descriptors a server process holds (Linux: /proc/<pid>/fd), leaving out its connections to the test
// PostgreSQL and Redis. Those belong to the process's pools, which open them on demand and close them on their own
// schedule (pg closes an idle one after 10 s): a count meant to show what clients make the server hold must not
// depend on them. Everything else counts: client sockets, listening sockets, files, pipes.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { TEST_REDIS_URL, TEST_SERVER_URL } from '@cerebro/host/test-kit';

const portOf = (url: string, fallback: number): number => Number(new URL(url).port || fallback);
const BACKEND_PORTS = new Set([portOf(TEST_SERVER_URL, 5432), portOf(TEST_REDIS_URL, 6379)]);

/** Socket inodes of `pid`'s TCP connections whose remote end is the test PostgreSQL or Redis. */
function backendSockets(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    // Columns: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …; addresses as HEX:PORT.
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remote = fields[2];
      if (!remote || !fields[9]) continue;
      if (BACKEND_PORTS.has(Number.parseInt(remote.split(':')[1] ?? '', 16))) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** How many descriptors `pid` holds, not counting its connections to the test PostgreSQL and Redis. */
export function serverDescriptors(pid: number): number {
  const backend = backendSockets(pid);
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed between the listing and the read: not held
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode === undefined || !backend.has(inode)) count++;
  }
  return count;
}
