// Run in a child process by `checkPluginPackage`: imports an unpacked plugin package and validates its default
// export and manifest, so a package that crashes, hangs or pollutes globals while loading never touches the CLI.
// Prints one JSON line: `{"id","version"}` or `{"error"}`.
import { pathToFileURL } from 'node:url';
import { readCandidate } from '../discovery.js';
import { assertDefinition, validateManifest } from '../manifest-validator.js';

async function check(dir: string): Promise<{ id: string; version: string }> {
  const candidate = readCandidate(dir);
  if (!candidate)
    throw new Error(
      'el paquete no declara un plugin de Cerebro (package.json: "cerebro": { "plugin": "<módulo de entrada>" }).',
    );
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(candidate.entry).href)) as { default?: unknown };
  } catch (err) {
    throw new Error(`no se pudo importar ${candidate.entry}: ${(err as Error)?.message ?? String(err)}`);
  }
  assertDefinition(module.default, candidate.packageName);
  validateManifest(module.default.manifest);
  const { id, version } = module.default.manifest;
  if (candidate.declaredId && candidate.declaredId !== id)
    throw new Error(`package.json declara el id "${candidate.declaredId}" y el manifiesto "${id}".`);
  return { id, version };
}

try {
  process.stdout.write(`${JSON.stringify(await check(process.argv[2]!))}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: (err as Error)?.message ?? String(err) })}\n`);
  process.exitCode = 1;
}
