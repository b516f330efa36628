import { definePlugin } from '@cerebro/sdk';

/** Module `ventas`. Its routes arrive with the issue that builds it; until then it loads and serves nothing. */
export default definePlugin({
  manifest: {
    id: 'ventas',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Ventas',
    description: 'Agente de ventas: catálogo, presupuestos y conversación con los clientes potenciales.',
    routes: [],
  },
  setup: () => ({ handlers: {} }),
});
