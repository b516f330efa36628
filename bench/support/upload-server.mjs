// For the upload benchmark: either the Cerebro host (mode "cerebro") or a bare node:http server that streams the
// request body straight to a file (mode "raw", the baseline). Reports its peak RSS on request.
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const mode = process.argv[2];

/**
 * This process's peak resident memory in KB. VmHWM belongs to the process's own address space; getrusage's
 * maxRSS is not usable here because Linux carries it over from the parent across fork and exec, so the bench's
 * own size (it holds the files it sends) would show up as the server's.
 */
const peakRssKb = () =>
  Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? process.resourceUsage().maxRSS);
const dir = mkdtempSync(join(tmpdir(), 'cerebro-upload-bench-'));
let port;
let key = null;
let close;
if (mode === 'raw') {
  const server = createServer(async (req, res) => {
    if (req.url === '/rss') return res.end(JSON.stringify({ maxRssKb: peakRssKb() }));
    await pipeline(req, createWriteStream(join(dir, 'upload.bin')));
    res.end('{}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
  close = () => server.close();
} else {
  const { startHost } = await import('@cerebro/host');
  const host = await startHost({
    config: {
      dataDir: dir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      discoverPlugins: false,
      bootstrapDemo: false,
    },
  });
  const owner = await host.admin.createOwner({ name: 'bench' });
  await host.admin.createSpace({ id: 'demo', ownerId: owner.id, modules: ['api'] });
  key = (await host.admin.issueKey(owner.id, 'bench', [], 'escribe')).token;
  port = host.port;
  const { createServer: rssServer } = await import('node:http');
  const side = rssServer((req, res) => res.end(JSON.stringify({ maxRssKb: peakRssKb() })));
  await new Promise((r) => side.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ port, key, rssPort: side.address().port })}\n`);
  close = async () => {
    side.close();
    await host.close();
  };
}
if (mode === 'raw') process.stdout.write(`${JSON.stringify({ port, key, rssPort: port })}\n`);
process.on('SIGTERM', async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
