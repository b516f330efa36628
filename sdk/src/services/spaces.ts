/** Read-only view of spaces for plugins that need to know about a space beyond the current request. */
export interface SpaceInfo {
  readonly id: string;
  readonly accountId: string;
  readonly modules: readonly string[];
}

export interface SpaceDirectory {
  get(spaceId: string): SpaceInfo | undefined;
  hasModule(spaceId: string, moduleId: string): boolean;
}
