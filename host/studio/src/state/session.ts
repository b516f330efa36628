import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SessionInfo, Space } from '../api/types.js';

export interface StudioState {
  session: SessionInfo;
  spaces: Space[];
  reloadSpaces(): Promise<void>;
  /** Replaces the session record (after the profile changes). */
  setSession(session: SessionInfo): void;
  signOut(): Promise<void>;
}

export const StudioContext = createContext<StudioState | null>(null);

export function useStudio(): StudioState {
  const state = useContext(StudioContext);
  if (!state) throw new Error('useStudio fuera de la sesión');
  return state;
}

/** The space a page works on, with its modules; undefined while the list loads or when it is not reachable. */
export function useSpace(id: string): Space | undefined {
  return useStudio().spaces.find((s) => s.id === id);
}
