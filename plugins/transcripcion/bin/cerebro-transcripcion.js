#!/usr/bin/env node
// The `cerebro-transcripcion` command (Whisper model installer). A committed file rather than `dist/cli.js`:
// `npm install` links bins before anything is built, and skips a bin whose file does not exist yet.
const cli = new URL('../dist/cli.js', import.meta.url);
try {
  await import(cli.href);
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/cli.js')) throw err;
  process.stderr.write(
    'El plugin transcripcion no está compilado: ejecuta "npm run build" en la carpeta del repositorio.\n',
  );
  process.exitCode = 1;
}
