// The Cerebro server of the auth benchmark (see bench-host.mjs), in its own process: prints its port and key.
import { startBenchHost } from './bench-host.mjs';

const bench = await startBenchHost();
process.stdout.write(`${JSON.stringify({ port: bench.host.port, key: bench.key })}\n`);
process.on('SIGTERM', async () => {
  await bench.close();
  process.exit(0);
});
