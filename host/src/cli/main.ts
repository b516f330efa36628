#!/usr/bin/env node
import '../main/no-onnx-telemetry.js';
import { endQuietlyOnBrokenPipe } from './broken-pipe.js';
import { runCli } from './run-cli.js';

endQuietlyOnBrokenPipe(process.stdout);

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
