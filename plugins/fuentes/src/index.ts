import { definePlugin } from '@cerebro/sdk';

/** Module `fuentes`. Its routes arrive with the issue that builds it; until then it loads and serves nothing. */
export default definePlugin({
  manifest: {
    id: 'fuentes',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Fuentes',
    description: 'Fuentes de información y fichas ensambladas a partir de ellas.',
    routes: [],
  },
  setup: () => ({ handlers: {} }),
});
