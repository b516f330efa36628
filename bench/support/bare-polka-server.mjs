// Baseline server of the auth benchmark: the bare polka route of bare-route.mjs, in its own process.
import { bareApp } from './bare-route.mjs';

const app = bareApp();
app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
});
