// Counts the bytes a ZIP entry really inflates to, without keeping them: a decompression bomb declares tiny sizes
// in its directory and inflates to hundreds of megabytes, so only the real count proves anything. Inflation is
// streamed and discarded chunk by chunk, and stops at the first byte past the allowance.
import { createInflateRaw } from 'node:zlib';

/** Compression methods of ZIP entries that Office files use. */
export const ZIP_METHOD = { stored: 0, deflate: 8 } as const;

/** The entry inflates to more than it was allowed. */
export class InflationLimitExceeded extends Error {
  constructor(readonly allowed: number) {
    super(`inflates past ${allowed} bytes`);
  }
}

/** The compressed data cannot be inflated (damaged or not deflate). */
export class InflationFailed extends Error {}

/**
 * Inflates `compressed` (raw deflate, or stored) and returns its real size, rejecting with InflationLimitExceeded
 * as soon as it passes `allowed` bytes. Memory stays at one output chunk whatever the entry inflates to.
 */
export function inflatedSize(compressed: Uint8Array, method: number, allowed: number): Promise<number> {
  if (method === ZIP_METHOD.stored) {
    return compressed.length > allowed
      ? Promise.reject(new InflationLimitExceeded(allowed))
      : Promise.resolve(compressed.length);
  }
  if (method !== ZIP_METHOD.deflate) return Promise.reject(new InflationFailed(`compression method ${method}`));
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > allowed) {
        settle(() => reject(new InflationLimitExceeded(allowed)));
        inflate.destroy();
      }
    });
    inflate.on('end', () => settle(() => resolve(total)));
    inflate.on('error', (err) => settle(() => reject(new InflationFailed(err.message))));
    inflate.end(compressed);
  });
}
