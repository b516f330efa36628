// The DOCX and XLSX readers' libraries (mammoth, exceljs: ~25 MB with their dependencies) are optional peers of
// @cerebro/host: the service installs them, a plugin project that installs the host only for the testing kit does
// not. Without one, that format's uploads fail with a reason the uploader can act on, never an internal error.
import { CerebroExtractionError, reasons } from '../errors.js';

/** Imports a reader module; if the optional package it is built on is not installed, a `no_soportado` failure. */
export async function loadOptionalReader<T>(load: () => Promise<T>, format: string, pkg: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const missing =
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes(`'${pkg}'`);
    if (missing) throw new CerebroExtractionError('no_soportado', reasons.readerMissing(format, pkg));
    throw err;
  }
}
