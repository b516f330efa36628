import { inject, injectable } from 'tsyringe';
import { mkdirSync } from 'node:fs';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import { processTempDir } from '../storage/process-temp-dir.js';
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { discardRestOfBody } from './unread-body.js';
import { storageFailureOf } from '../storage/storage-failure.js';
import {
  UploadError,
  type ReceivedFile,
  type ReceivedForm,
  type UploadLimits,
  type UploadReceiver,
} from '@cerebro/sdk';

/** Bytes a multipart envelope may add around the files (boundaries, part headers, small fields). */
const ENVELOPE_ALLOWANCE = 256 * 1024;

/**
 * Streams multipart/form-data to temporary files with busboy (the fastest streaming parser measured here; it
 * never buffers a file in memory). Limits are enforced while reading: the first byte over a file's limit stops
 * the upload, and a Content-Length that cannot fit is refused before reading anything.
 */
@injectable()
export class BusboyUploadReceiver implements UploadReceiver {
  private readonly tmpRoot: string;

  constructor(@inject(HostTokens.Config) config: HostConfig) {
    // Per-process folder: start-up removes the folders of dead processes, never those of a live one.
    this.tmpRoot = processTempDir(config.dataDir);
    mkdirSync(this.tmpRoot, { recursive: true });
  }

  async receive(req: IncomingMessage, limits: UploadLimits): Promise<ReceivedForm> {
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data/i.test(type)) {
      throw new UploadError('not_multipart', 'El cuerpo debe enviarse como multipart/form-data.');
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limits.maxFileBytes * limits.maxFiles + ENVELOPE_ALLOWANCE) {
      throw new UploadError('file_too_large', `El archivo supera el máximo de ${limits.maxFileBytes} bytes.`);
    }
    const dir = await mkdtemp(join(this.tmpRoot, 'upload-'));
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      return await this.parse(req, limits, dir, cleanup);
    } catch (err) {
      await cleanup();
      throw err;
    }
  }

  private parse(
    req: IncomingMessage,
    limits: UploadLimits,
    dir: string,
    cleanup: () => Promise<void>,
  ): Promise<ReceivedForm> {
    return new Promise<ReceivedForm>((resolve, reject) => {
      const slots: (ReceivedFile | null)[] = [];
      // No prototype: a form field named `__proto__` or `toString` is a field like any other.
      const fields = Object.create(null) as Record<string, string>;
      const writes: Promise<void>[] = [];
      let failed: Error | null = null;
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          // Keep the name exactly as sent: callers validate it and refuse paths instead of silently trimming them.
          preservePath: true,
          // Clients send UTF-8 file names; busboy would read them as Latin-1 by default.
          defParamCharset: 'utf8',
          // busboy signals its limit when a file *reaches* `fileSize`; the limit is inclusive (a file of exactly
          // maxFileBytes is accepted, as the messages say), so the signal must come at the first byte past it.
          limits: {
            fileSize: limits.maxFileBytes + 1,
            files: limits.maxFiles,
            fields: limits.maxFields ?? 20,
            fieldSize: 64 * 1024,
          },
        });
      } catch {
        return reject(new UploadError('malformed', 'Cuerpo multipart mal formado.'));
      }
      // An UploadError is the client's doing; a full disk is the server's and travels as it is (507 upstream).
      const fail = (error: Error) => {
        if (failed) return;
        failed = error;
        req.unpipe(parser);
        discardRestOfBody(req); // the answer goes out now; the rest of the body must not stay on the connection
        reject(error);
      };
      parser.on('file', (field, stream, info) => {
        const path = join(dir, randomUUID());
        const file = { field, filename: info.filename ?? '', mimeType: info.mimeType, path, bytes: 0 };
        const position = slots.push(null) - 1; // results keep the order files arrived in
        stream.on('data', (chunk: Buffer) => {
          file.bytes += chunk.length;
        });
        stream.on('limit', () =>
          fail(
            new UploadError('file_too_large', `El archivo supera el máximo de ${limits.maxFileBytes} bytes.`, field),
          ),
        );
        writes.push(
          pipeline(stream, createWriteStream(path)).then(
            () => {
              slots[position] = file;
            },
            (err: unknown) =>
              fail(
                storageFailureOf(err) ? (err as Error) : new UploadError('aborted', 'La subida se interrumpió.', field),
              ),
          ),
        );
      });
      parser.on('field', (name, value) => {
        // One value per field: a repeated one is refused rather than silently keeping one of them. Names ending in
        // `[]` are arrays by convention (OpenAI's clients repeat `timestamp_granularities[]`): the last is kept.
        if (name in fields && !name.endsWith('[]'))
          return fail(
            new UploadError(
              'malformed',
              `El campo «${name}» aparece más de una vez en el formulario; envíalo una sola vez.`,
            ),
          );
        fields[name] = value;
      });
      parser.on('filesLimit', () =>
        fail(new UploadError('too_many_files', `Se admiten como máximo ${limits.maxFiles} archivos por petición.`)),
      );
      parser.on('fieldsLimit', () => fail(new UploadError('too_many_fields', 'Demasiados campos en el formulario.')));
      parser.on('error', () => fail(new UploadError('malformed', 'Cuerpo multipart mal formado.')));
      parser.on('close', () => {
        void Promise.all(writes).then(() => {
          if (!failed) resolve({ files: slots.filter((f): f is ReceivedFile => f !== null), fields, cleanup });
        });
      });
      req.on('aborted', () => fail(new UploadError('aborted', 'La subida se interrumpió.')));
      req.pipe(parser);
    });
  }
}
