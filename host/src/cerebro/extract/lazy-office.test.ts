// exceljs and mammoth cost tens of MB per indexing thread: a CSV or a text must be read without loading either.
// A child process registers a module resolve hook that refuses them, then extracts; the XLSX path proves the hook
// does see the lazy import.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { makeXlsx, tempDir, type TempDir } from '../testing/fixtures.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

const REFUSE_OFFICE = `export async function resolve(specifier, context, next) {
  if (specifier === 'exceljs' || specifier === 'mammoth') throw new Error('cargado ' + specifier);
  return next(specifier, context);
}`;

/** Extracts `file` in a fresh process where loading exceljs or mammoth throws; resolves with its output line. */
async function extractWithoutOffice(file: string, name: string): Promise<string> {
  const script = `
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(REFUSE_OFFICE)}));
    const { extractFile } = await import(${JSON.stringify(new URL('./extract.js', import.meta.url).href)});
    try {
      const doc = await extractFile(${JSON.stringify(file)}, ${JSON.stringify(name)});
      console.log('bloques ' + doc.blocks.length);
    } catch (err) {
      console.log('error ' + err.message);
    }`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  return stdout.trim();
}

test('a CSV is extracted without loading exceljs or mammoth', async () => {
  const csv = await dir.file('precios.csv', 'producto,precio\nmesa,120\nsilla,45\n');
  assert.equal(await extractWithoutOffice(csv, 'precios.csv'), 'bloques 2');
});

test('the XLSX path does load exceljs (the hook sees the lazy import)', async () => {
  const xlsx = await dir.file(
    'hoja.xlsx',
    await makeXlsx({
      Hoja: [
        ['a', 'b'],
        ['1', '2'],
      ],
    }),
  );
  assert.match(await extractWithoutOffice(xlsx, 'hoja.xlsx'), /cargado exceljs/);
});
