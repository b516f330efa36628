import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by the host at /studio/ (host/studio/dist). Hashed file names let the host cache assets forever; the
// strict CSP (script-src 'self', style-src 'self') rules out inline code, so nothing is inlined into index.html.
export default defineConfig({
  base: '/studio/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  resolve: {
    // The console bundles two things of the sdk from source (sdk/src/console-bundle.ts): the persona builder of the
    // brand editor (src/lib/persona.ts) and the catalog's money format (src/lib/money.ts). Nothing else.
    alias: [
      {
        find: /^@cerebro\/sdk$/,
        replacement: fileURLToPath(new URL('../../sdk/src/console-bundle.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': process.env.CEREBRO_URL ?? 'http://127.0.0.1:8080' },
  },
});
