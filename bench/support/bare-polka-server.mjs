// Baseline for the auth benchmark: a bare polka route that logs one pino line per request, nothing else.
import polka from 'polka';
import { pino } from 'pino';

const log = pino(pino.destination({ dest: '/dev/null', sync: false }));
const body = JSON.stringify({ espacios: [{ id: 'demo', nombre: 'demo', modulos: ['api'], api_activa: true }] });
const app = polka().get('/api/companies', (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  log.info({ method: req.method, route: 'GET /companies', status: 200 }, 'petición');
});
app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
});
