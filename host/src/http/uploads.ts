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
import type { Readable, Writable } from 'node:stream';
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

  /** Where one file's bytes go: a new file at `path` (a test slows it down to make a refusal meet open writes). */
  protected openFile(path: string): Writable {
    return createWriteStream(path);
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
      /** One promise per file, settled once its temporary file is written (or abandoned) and closed; never rejects. */
      const writes: Promise<void>[] = [];
      const sources: Readable[] = [];
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
      // The refusal waits for every file write it interrupts: the caller removes the folder once this rejects, and a
      // write still opening its file would recreate one inside it (the removal then fails, a 500, and the file stays),
      // while one left waiting for bytes that never come would hold its descriptor for good.
      const fail = (error: Error) => {
        if (failed) return;
        failed = error;
        req.unpipe(parser);
        discardRestOfBody(req); // the answer goes out now; the rest of the body must not stay on the connection
        // Ends each write still running. With an error: a stream destroyed without one between its last byte and its
        // `end` leaves its pipeline waiting for good (Node 20), and with it this refusal.
        for (const stream of sources) if (!stream.destroyed) stream.destroy(error);
        void Promise.all(writes).then(() => reject(error));
      };
      parser.on('file', (field, stream, info) => {
        // A refused request writes nothing more: a file the parser still finds in the bytes it holds is skipped.
        if (failed) return void stream.resume();
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
        sources.push(stream);
        const sink = this.openFile(path);
        // Settled once the descriptor is closed, however the write ended (done, failed, or destroyed by a refusal).
        const closed = new Promise<void>((done) => sink.once('close', done));
        writes.push(
          pipeline(stream, sink)
            .then(
              () => {
                slots[position] = file;
              },
              (err: unknown) =>
                fail(
                  storageFailureOf(err)
                    ? (err as Error)
                    : new UploadError('aborted', 'La subida se interrumpió.', field),
                ),
            )
            .then(() => closed),
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
