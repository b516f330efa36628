import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestHost } from '@cerebro/sdk/testing';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const testDir = fileURLToPath(new URL('../', import.meta.url));
const clientDir = join(testDir, 'openapi-client');

/** `format: binary` is a file: a generated client takes a `Blob` (or `File`) there, not a string. */
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

test('the OpenAPI document passes Redocly lint (test/redocly.yaml) with no errors', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-openapi-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(doc));
  const cli = join(require.resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');
  // Lint exits 1 on errors; the JSON report on stdout is read either way.
  const result = await run(
    process.execPath,
    [cli, 'lint', file, '--config', join(testDir, 'redocly.yaml'), '--format=json'],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((err: { stdout: string; stderr: string }) => err);
  const report = JSON.parse(result.stdout) as LintReport;
  const errors = report.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  assert.deepEqual(errors, [], 'Redocly lint errors');
  assert.equal(report.totals.errors, 0);

  // What a linter does not know: every operation says what it answers on success, with a typed body (or, for a
  // redirect, only its 3xx status).
  const untyped: string[] = [];
  for (const [path, methods] of Object.entries(
    doc.paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>
    >,
  )) {
    for (const [method, op] of Object.entries(methods)) {
      const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
      const typed = success.some(
        ([status, r]) =>
          status === '204' ||
          Object.values(r.content ?? {}).some(
            ({ schema }) =>
              schema !== undefined &&
              (schema.type !== 'object' ||
                schema.properties !== undefined ||
                schema.additionalProperties !== undefined),
          ),
      );
      // A route whose success is a redirect (a published landing's button: 303 to its URL) has no body to type.
      const redirects = Object.keys(op.responses).some((status) => /^30[1237]$/.test(status));
      if (!typed && !(success.length === 0 && redirects)) untyped.push(`${method.toUpperCase()} ${path}`);
    }
  }
  assert.deepEqual(untyped, [], 'operations without a typed success response');
});

test('a client generated with openapi-typescript compiles against the main flows (test/openapi-client/usage.ts) without casts', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const ast = await openapiTS(doc, {
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  });
  await writeFile(join(clientDir, 'cerebro-api.d.ts'), astToString(ast));

  const config = ts.getParsedCommandLineOfConfigFile(join(clientDir, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  })!;
  const program = ts.createProgram(config.fileNames, config.options);
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.slice(clientDir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
        : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.deepEqual(problems, [], 'the usage file does not compile against the generated client');
  const usage = program.getSourceFile(join(clientDir, 'usage.ts'))!.text;
  assert.doesNotMatch(usage, /\bas\s+(unknown|any|[A-Z]\w*)\b|<any>|: any\b/, 'the usage file must not cast');
});
