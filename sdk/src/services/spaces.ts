/** Read-only view of spaces for plugins that need to know about a space beyond the current request. */
export interface SpaceInfo {
  readonly id: string;
  readonly accountId: string;
  readonly modules: readonly string[];
}

/**
 * The spaces a plugin may look up. Since sdk 2.1 use `find` and `moduleEnabled`: they read through the host's
 * asynchronous storage, so they work on every backend (a host on PostgreSQL has no synchronous reads).
 */
export interface SpaceDirectory {
  /** The space, or undefined when it does not exist. */
  find(spaceId: string): Promise<SpaceInfo | undefined>;
  /** Whether the space exists and has the module enabled. */
  moduleEnabled(spaceId: string, moduleId: string): Promise<boolean>;
  /** @deprecated since 2.1: use `find`. Synchronous; served by a host on SQLite only. */
  get(spaceId: string): SpaceInfo | undefined;
  /** @deprecated since 2.1: use `moduleEnabled`. Synchronous; served by a host on SQLite only. */
  hasModule(spaceId: string, moduleId: string): boolean;
}
