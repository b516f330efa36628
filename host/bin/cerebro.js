#!/usr/bin/env node
// The `cerebro` command of a checkout or an installed package. A committed file rather than `dist/cli/main.js`:
// `npm install` links bins before anything is built, and skips a bin whose file does not exist yet, which left
// `npx cerebro` asking the registry (E404).
const cli = new URL('../dist/cli/main.js', import.meta.url);
try {
  await import(cli.href);
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/cli/main.js')) throw err;
  process.stderr.write('Cerebro no está compilado: ejecuta "npm run build" en la carpeta del repositorio.\n');
  process.exitCode = 1;
}
