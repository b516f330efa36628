// The Cerebro server of the Studio benchmark (see bench-host.mjs), in its own process: prints its port, a key and
// a console session credential (the value of the Studio cookie).
import { startBenchHost } from './bench-host.mjs';

const bench = await startBenchHost();
const owner = (await bench.host.admin.listOwners()).propietarios[0].id;
const session = (await bench.host.admin.issueConsoleSession(owner)).token;
process.stdout.write(`${JSON.stringify({ port: bench.host.port, key: bench.key, session })}\n`);
process.on('SIGTERM', async () => {
  await bench.close();
  process.exit(0);
});
