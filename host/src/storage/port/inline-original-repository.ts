import { createToken } from '@cerebro/sdk';

/**
 * Small originals kept in the host database (`cerebro_inline_originals`) instead of one file each
 * (storage/originals/inline-originals-store.ts): written once under a new name, read, deleted; never changed.
 */
export interface InlineOriginalRepository {
  put(stored: string, content: Uint8Array): Promise<void>;
  /** The original's bytes; null when it is not there. */
  get(stored: string): Promise<Buffer | null>;
  /** Deletes it; one already gone is no error. */
  remove(stored: string): Promise<void>;
}

export const InlineOriginalRepositoryToken = createToken<InlineOriginalRepository>('host:inline-original-repository');
