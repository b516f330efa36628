import { definePlugin } from '@cerebro/sdk';

/** Module `landing`. Its routes arrive with the issue that builds it; until then it loads and serves nothing. */
export default definePlugin({
  manifest: {
    id: 'landing',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Landing',
    description: 'Páginas de aterrizaje generadas y refinadas a partir de los documentos del espacio.',
    routes: [],
  },
  setup: () => ({ handlers: {} }),
});
