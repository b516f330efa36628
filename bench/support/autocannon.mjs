// Load from another process: autocannon on loopback, JSON results.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

/** Runs autocannon against `url` with `headers` for `seconds` at `connections`; resolves with its JSON report. */
export function load(url, headers, seconds, connections) {
  const args = [AUTOCANNON, '-c', String(connections), '-d', String(seconds), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}
