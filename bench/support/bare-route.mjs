// The baseline of the access-path benchmarks: a bare polka route that answers what GET /companies answers and
// logs one pino line per request, nothing else.
import polka from 'polka';
import { pino } from 'pino';

export function bareApp() {
  const log = pino(pino.destination({ dest: '/dev/null', sync: false }));
  const body = JSON.stringify({ espacios: [{ id: 'demo', nombre: 'demo', modulos: ['api'], api_activa: true }] });
  return polka().get('/api/companies', (req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    log.info({ method: req.method, route: 'GET /companies', status: 200 }, 'petición');
  });
}
