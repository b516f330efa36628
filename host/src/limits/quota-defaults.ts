// Kept apart from storage-quotas.ts so the configuration can name it without loading the DI container's code.

/** Default storage quota of an account without its own: 10 GiB and 10,000 documents (0 in the settings: no limit). */
export const DEFAULT_QUOTA = { bytes: 10 * 1024 ** 3, documents: 10_000 };
