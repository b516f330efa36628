import { createToken } from '@cerebro/sdk';

/** Each space's question settings (`/rag/{espacio}/config`), stored as the JSON the rag layer reads and validates. */
export interface RagSettingsRepository {
  /** The stored settings' JSON, or null when the space keeps the defaults. */
  settings(space: string): Promise<string | null>;
  /** Stores (or replaces) the space's settings. */
  save(space: string, json: string, at: string): Promise<void>;
}

export const RagSettingsRepositoryToken = createToken<RagSettingsRepository>('host:rag-settings-repository');
