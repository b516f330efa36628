import { createRequire } from 'node:module';

interface RobotsTxt {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// A CommonJS package whose typings declare an ES default export: required, so the call works under NodeNext.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => RobotsTxt;

/** The robots.txt rules of one origin, for our user agent. */
export interface RobotsRules {
  allows(url: string): boolean;
  /** Why a URL is refused, for the run's errors. */
  refusal: string;
  /** Crawl-delay in milliseconds, when the site asks for one. */
  delayMs: number | null;
  sitemaps: string[];
  /**
   * robots.txt could not be read (5xx, network): the refusal is a failure of the site, not its wish, so the pages
   * keep their documents (a site down must not empty the source).
   */
  unreadable: boolean;
}

/** Everything allowed: robots.txt absent (4xx), as RFC 9309 says. */
export const ALLOW_ALL: RobotsRules = {
  allows: () => true,
  refusal: '',
  delayMs: null,
  sitemaps: [],
  unreadable: false,
};

/** Nothing allowed: robots.txt unreachable (5xx or network), as RFC 9309 says, until it can be read. */
export const disallowAll = (why: string): RobotsRules => ({
  allows: () => false,
  refusal: `robots.txt no se pudo leer (${why}): hasta poder leerlo no se visita el sitio.`,
  delayMs: null,
  sitemaps: [],
  unreadable: true,
});

export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(userAgent);
  return {
    // A URL of another origin is not governed by these rules (robots-parser answers undefined).
    allows: (url) => robots.isAllowed(url, userAgent) !== false,
    refusal: 'robots.txt del sitio no permite visitar esta página.',
    delayMs: delay !== undefined && Number.isFinite(delay) ? delay * 1000 : null,
    // Sitemap lines should be absolute; a relative one is taken against robots.txt's own address, as browsers would.
    sitemaps: robots.getSitemaps().flatMap((s) => (URL.canParse(s, robotsUrl) ? [new URL(s, robotsUrl).href] : [])),
    unreadable: false,
  };
}
