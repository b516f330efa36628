import { FetchFailure } from '../fetch/fetch-failure.js';
import type { GuardedFetcher } from '../fetch/http-fetcher.js';
import { ALLOW_ALL, disallowAll, parseRobots, type RobotsRules } from '../discover/robots.js';

/** robots.txt of each origin a run visits, read once per run. */
export class RobotsCache {
  private readonly rules = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly userAgent: string,
    private readonly signal: AbortSignal,
  ) {}

  for(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    let rules = this.rules.get(origin);
    if (!rules) {
      rules = this.read(`${origin}/robots.txt`);
      this.rules.set(origin, rules);
    }
    return rules;
  }

  /** RFC 9309: absent (4xx) allows everything; unreachable (5xx, network) allows nothing until it can be read. */
  private async read(robotsUrl: string): Promise<RobotsRules> {
    try {
      const res = await this.fetcher.fetch({ url: robotsUrl, signal: this.signal, accept: 'text/plain,*/*;q=0.5' });
      if (res.status >= 200 && res.status < 300) return parseRobots(res.url, res.body.toString('utf8'), this.userAgent);
      if (res.status >= 400 && res.status < 500) return ALLOW_ALL;
      return disallowAll(`respuesta ${res.status}`);
    } catch (err) {
      if (this.signal.aborted) throw err;
      // The address guard refuses the page too, with its own reason: robots must not hide it.
      if (err instanceof FetchFailure && (err.code === 'direccion_bloqueada' || err.code === 'esquema_no_admitido'))
        return ALLOW_ALL;
      return disallowAll(err instanceof FetchFailure ? err.code : 'error de red');
    }
  }
}
