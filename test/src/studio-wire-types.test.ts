// Studio reads the service's answers through types generated from the OpenAPI document at build time
// (host/studio/scripts/wire-types.mjs): the console's type check passes against the real document, and fails when a
// wire field the console reads is renamed. The console imports no plugin's source.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestHost } from '@cerebro/sdk/testing';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STUDIO = join(ROOT, 'host/studio');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          {
            content: Record<
              string,
              {
                schema: {
                  properties: Record<string, { items: { required: string[]; properties: Record<string, unknown> } }>;
                };
              }
            >;
          }
        >;
      }
    >
  >;
};

/** Type-checks a copy of Studio's sources whose wire types come from `document`; tsc's output, or null when clean. */
async function typecheckAgainst(document: unknown): Promise<string | null> {
  // Inside host/studio, so the copy resolves preact and vite's types as Studio does.
  const dir = await mkdtemp(join(STUDIO, '.wire-check-'));
  try {
    await cp(join(STUDIO, 'src'), join(dir, 'src'), { recursive: true });
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['src'] }));
    await run(process.execPath, [
      join(STUDIO, 'scripts/wire-types.mjs'),
      '--document',
      join(dir, 'openapi.json'),
      '--out',
      join(dir, 'src/api/openapi.gen.ts'),
    ]);
    try {
      await run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')]);
      return null;
    } catch (err) {
      return (err as { stdout: string }).stdout;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('Studio type-checks against the served OpenAPI document and fails when a field it reads is renamed', {
  timeout: 300_000,
}, async (t) => {
  const h = await startTestHost(t, { discover: true });
  const document = h.host.openapi() as Doc;
  assert.equal(await typecheckAgainst(document), null, 'the real document type-checks');

  const renamed = structuredClone(document);
  const space =
    renamed.paths['/companies']!.get!.responses['200']!.content['application/json']!.schema.properties.espacios!.items;
  space.properties.nombre_visible = space.properties.nombre;
  delete space.properties.nombre;
  space.required = space.required.map((f) => (f === 'nombre' ? 'nombre_visible' : f));
  const errors = await typecheckAgainst(renamed);
  assert.match(
    errors ?? '',
    /error TS\d+: Property 'nombre' does not exist/,
    'renaming espacios[].nombre breaks the console build',
  );
});

test('Studio imports no plugin source', async () => {
  const { stdout } = await run('grep', ['-rlE', "from '[./]*plugins/", join(STUDIO, 'src')]).catch(
    (err: { code: number; stdout: string }) => {
      if (err.code === 1) return { stdout: '' }; // grep: no match
      throw err;
    },
  );
  assert.equal(stdout, '');
  assert.match(await readFile(join(STUDIO, 'src/lib/persona.ts'), 'utf8'), /from '@cerebro\/sdk'/);
});
