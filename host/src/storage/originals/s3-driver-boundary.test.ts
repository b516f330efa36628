// The S3 driver loads only when CEREBRO_ARCHIVOS names an S3 store: outside storage/originals/s3, no shipped source
// imports it (or `aws4`) as a value; open-originals-store.ts reaches it with `import()` alone. So the embedded start
// never loads it, and the executable's bundle (which keeps aws4 out) carries no more than the store's own code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** A static value import of the driver's modules or its library (type-only imports vanish when compiled). */
const STATIC_IMPORT = /^\s*import\s+(?!type\b)[^;]*from\s+['"](aws4|[^'"]*\/s3\/s3-[a-z-]+\.js)['"]/m;

test('only storage/originals/s3 imports the S3 driver statically; the store opener imports it dynamically', () => {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter(
    (p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.startsWith('test-kit/'),
  );
  const offenders = files.filter(
    (p) => !p.startsWith('storage/originals/s3/') && STATIC_IMPORT.test(readFileSync(join(SRC, p), 'utf8')),
  );
  assert.deepEqual(offenders, []);
  const opener = readFileSync(join(SRC, 'storage/originals/open-originals-store.ts'), 'utf8');
  assert.match(opener, /await import\('\.\/s3\/s3-originals-store\.js'\)/);
  assert.ok(STATIC_IMPORT.test("import { S3Client } from './s3/s3-client.js';"), 'the check sees a static import');
  assert.ok(!STATIC_IMPORT.test("import type { S3Location } from './s3/s3-client.js';"), 'type-only imports pass');
});
