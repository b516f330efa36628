import { useEffect } from 'preact/hooks';

/** Calls `tick` every `ms` while `active` (work the server does on its own: indexing, crawling, writing a page). */
export function usePoll(active: boolean, tick: () => unknown, ms = 2000): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      void tick();
    }, ms);
    return () => clearInterval(timer);
  }, [active, tick, ms]);
}
