import type { Permission } from '@cerebro/sdk';

export interface KeyRecord {
  id: string;
  ownerId: string;
  name: string;
  /** Space ids; empty means every space of the owner at the moment of each request. */
  spaces: readonly string[];
  permission: Permission;
}

/** Who is calling, recomputed on every request from the credential. */
export type Caller =
  | { kind: 'key'; ownerId: string; key: KeyRecord; ownerReadOnly: boolean }
  | { kind: 'console'; ownerId: string; sessionId: string; ownerReadOnly: boolean }
  | { kind: 'operator'; operatorId: string };

export type OwnerCaller = Extract<Caller, { kind: 'key' | 'console' }>;
