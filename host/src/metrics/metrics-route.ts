import { Reply } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { HostMetrics } from './metrics-services.js';

export const METRICS_DESCRIPTION =
  'Métricas en formato de texto de Prometheus: peticiones por ruta y estado, latencias, peticiones en curso, cola, ' +
  'duración y fallos de la indexación, documentos y pasajes por espacio, créditos cobrados y reembolsados, estado de los ' +
  'plugins y sus indicadores (cola y motor de transcripción), tamaño de las bases SQLite y las del proceso Node. Solo con la ' +
  'credencial de operador; para un recolector sin credencial, `CEREBRO_METRICS_PORT` abre una dirección aparte.';

/** `GET /api/metrics` for the operator credential. */
export const METRICS_ROUTES = declareRoutes([
  {
    operationId: 'core.metrics',
    method: 'GET',
    path: '/api/metrics',
    access: 'admin',
    tag: 'admin',
    summary: 'Métricas de Prometheus',
    description: METRICS_DESCRIPTION,
    responses: {
      '200': {
        description: 'Exposición de Prometheus (text/plain; version=0.0.4).',
        contentType: 'text/plain',
        schema: { type: 'string' },
      },
      '401': { description: 'Falta la credencial o no es válida.' },
      '403': { description: 'La credencial no es la de operador.' },
    },
  },
]);

/** The handler of the metrics route. */
export function metricsRoute(metrics: HostMetrics): HostRoute {
  return hostRoutes(METRICS_ROUTES, {
    'core.metrics': async () => Reply.send(200, await metrics.text(), metrics.contentType),
  })[0]!;
}
