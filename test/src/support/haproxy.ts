// haproxy (the Debian package) in front of several `cerebro serve` processes on 127.0.0.1: the load balancer of the
// scale-out test and bench. Its configuration is written to a temporary folder; the hosts' ports are fixed up front
// so that a host restarted after a crash comes back at the address haproxy checks.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HAPROXY = '/usr/sbin/haproxy';

/** Null when haproxy can run here; otherwise why the tests that need it are skipped. */
export function haproxyUnavailable(): string | null {
  const probe = spawnSync(HAPROXY, ['-v'], { encoding: 'utf8' });
  return probe.status === 0 ? null : `haproxy no está instalado (${HAPROXY}): apt-get install haproxy`;
}

/** A TCP port nobody listens on right now (the kernel's choice, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Balancer {
  /** Root of the balanced service, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** haproxy's log lines of requests that did not end normally (termination state other than `----`). */
  abnormal(): string[];
  stop(): Promise<void>;
}

/**
 * Starts haproxy balancing round-robin over the API hosts at `ports`. A host is checked every 300 ms on
 * `/api/ready` (a busy host has 3 s to answer) and taken out after two failed checks or at once when a connection
 * to it fails, back after two successful checks; a request whose connection to a host
 * cannot be made is sent to another (`retry-on conn-failure` with `redispatch`): only requests already in a host's
 * hands when it dies can fail, as with any balancer. Nothing is retried once a host has it (a POST may have run).
 */
export async function startHaproxy(ports: readonly number[]): Promise<Balancer> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-haproxy-'));
  const port = await freePort();
  const servers = ports.map((p, i) => `  server api${i + 1} 127.0.0.1:${p} check inter 200ms fall 1 rise 2`).join('\n');
  const config = `global
  maxconn 4096
  log stderr format raw local0 info
defaults
  mode http
  log global
  option httplog
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  retries 3
  option redispatch 1
  retry-on conn-failure
frontend cerebro
  bind 127.0.0.1:${port}
  default_backend api
backend api
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  timeout check 3s
  default-server inter 300ms fastinter 100ms fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down
${servers}
`;
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child: ChildProcess = spawn(HAPROXY, ['-f', file, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers through to a host.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy terminó al arrancar: ${stderr}`);
    const ok = await fetch(`${url}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy no respondió en 10 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    abnormal: () =>
      stderr.split('\n').filter((line) => / (200|201|202|204|4\d\d|5\d\d|-1) /.test(line) && !/ ---- /.test(line)),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
