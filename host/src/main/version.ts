import { readFileSync } from 'node:fs';

/** The host package's version, read once from its package.json. */
export const HOST_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
