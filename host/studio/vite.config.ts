import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by the host at /studio/ (host/studio/dist). Hashed file names let the host cache assets forever; the
// strict CSP (script-src 'self', style-src 'self') rules out inline code, so nothing is inlined into index.html.
export default defineConfig({
  base: '/studio/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  resolve: {
    // The brand editor bundles the sdk's persona builder (src/lib/persona.ts), from its source file, which imports
    // only the brand's shape and fixed rules (a file with no imports). Nothing else in the console imports the sdk.
    alias: [
      {
        find: /^@cerebro\/sdk$/,
        replacement: fileURLToPath(new URL('../../sdk/src/services/brand-persona.ts', import.meta.url)),
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
