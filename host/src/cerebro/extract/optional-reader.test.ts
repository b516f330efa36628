import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CerebroExtractionError } from '../errors.js';
import { loadOptionalReader } from './optional-reader.js';

test('a reader whose optional package is not installed fails as an unsupported format, naming the package', async () => {
  // A real failed import of a package that does not exist, as Node reports it.
  const specifier = 'cerebro-paquete-que-no-existe';
  const err = await loadOptionalReader(() => import(specifier), 'XLSX', specifier).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof CerebroExtractionError);
  assert.equal(err.code, 'no_soportado');
  assert.match(err.reason, /lector de XLSX \(paquete cerebro-paquete-que-no-existe\)/);
});

test('other failures of the reader module pass through unchanged', async () => {
  const boom = new Error('fallo propio del lector');
  await assert.rejects(
    loadOptionalReader(() => Promise.reject(boom), 'DOCX', 'mammoth'),
    (e) => e === boom,
  );
  // A missing module that is not the optional package (a broken install) is not disguised as an unsupported format.
  const other = 'cerebro-otro-que-falta';
  await assert.rejects(
    loadOptionalReader(() => import(other), 'DOCX', 'mammoth'),
    (e: NodeJS.ErrnoException) => e.code === 'ERR_MODULE_NOT_FOUND',
  );
});

test('an installed reader loads', async () => {
  const mod = await loadOptionalReader(() => import('./xlsx.js'), 'XLSX', 'exceljs');
  assert.equal(typeof mod.xlsxToDocument, 'function');
});
