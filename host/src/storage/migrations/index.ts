import type { Migration } from '@cerebro/sdk';
import { migration0001Core } from './0001_core.js';

/** The host's migrations, in order. Append only. */
export const HOST_MIGRATIONS: readonly Migration[] = [migration0001Core];
