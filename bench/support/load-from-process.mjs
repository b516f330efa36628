// Runs load-many.mjs (autocannon) in a process of its own against `urls`, so the load generator never shares the
// bench's event loop; resolves with autocannon's report.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOADER = fileURLToPath(new URL('./load-many.mjs', import.meta.url));

export function loadFromProcess(urls, headers, seconds, connections) {
  const child = spawn(process.execPath, [LOADER, JSON.stringify({ urls, headers, seconds, connections })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`)))),
  );
}
