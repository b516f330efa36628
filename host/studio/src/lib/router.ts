import { useEffect, useState } from 'preact/hooks';

/** The console lives under /studio/; the host answers index.html for every path below it. */
export const BASE = '/studio/';

const listeners = new Set<() => void>();

/** The path below /studio/, without leading or trailing slash: '' for the home page. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  return path.replace(/\/+$/, '');
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = BASE + path.replace(/^\/+/, '');
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** Re-renders the caller whenever the path changes (links, back and forward). */
export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return path;
}

/** Matches `pattern` ('espacios/:espacio/documentos') against `path`; named segments come back decoded. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) {
      try {
        params[want[i]!.slice(1)] = decodeURIComponent(have[i]!);
      } catch {
        return null;
      }
    } else if (want[i] !== have[i]) return null;
  }
  return params;
}
