import { definePlugin } from '@cerebro/sdk';

/** Module `transcripcion`. Its routes arrive with the issue that builds it; until then it loads and serves nothing. */
export default definePlugin({
  manifest: {
    id: 'transcripcion',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Transcripción',
    description: 'Transcripción de audio a texto con Whisper.',
    routes: [],
  },
  setup: () => ({ handlers: {} }),
});
