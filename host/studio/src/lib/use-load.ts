import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
  set(data: T): void;
  /**
   * Changes what is shown now, whatever it is when the change lands: for a change computed after an await (a poll),
   * where `set` with a copy made before the await would bring back data a reload has replaced since.
   */
  update(change: (current: T) => T): void;
}

/**
 * Loads data for a page and reloads it when `deps` change; the latest call wins. With `keep`, what was shown stays
 * until the new data arrives (for "show more", where clearing would jump the page back to the top).
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], keep = false): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await run();
      if (mine === generation.current) {
        setData(value);
        setError(null);
      }
    } catch (err) {
      if (mine === generation.current) setError(err);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    if (!keep) setData(undefined);
    void reload();
  }, [reload]);
  const update = useCallback((change: (current: T) => T) => {
    setData((current) => (current === undefined ? current : change(current)));
  }, []);
  return { data, error, loading, reload, set: setData, update };
}
