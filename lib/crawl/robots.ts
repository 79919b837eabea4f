import robotsParser from 'robots-parser';
import { fetchFollowing, NetError, USER_AGENT_TOKEN } from '@/lib/net';

/** A site may slow us down with Crawl-delay, but not beyond this per request. */
export const MAX_CRAWL_DELAY_MS = 10_000;
/** RFC 9309 asks crawlers to parse at least 500 KiB; anything past it is ignored. */
const MAX_ROBOTS_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;
/** RFC 9309: follow at least five redirects for robots.txt. */
const ROBOTS_MAX_REDIRECTS = 5;

export interface RobotsPolicy {
  /** `file`: rules were read; `none`: no robots.txt (4xx); `unreachable`: 5xx or no answer. */
  source: 'file' | 'none' | 'unreachable';
  /** Why the crawl runs without rules, in plain words, when robots.txt could not be read. */
  note: string | null;
  /** Delay between requests asked for by Crawl-delay, capped at MAX_CRAWL_DELAY_MS; 0 when none. */
  crawlDelayMs: number;
  /** Absolute URLs from `Sitemap:` lines. */
  sitemaps: string[];
  /** Whether SitewatchBot (else the `*` group) may fetch this URL's path. */
  isAllowed(url: string | URL): boolean;
}

function allowAll(source: 'none' | 'unreachable', note: string | null): RobotsPolicy {
  return { source, note, crawlDelayMs: 0, sitemaps: [], isAllowed: () => true };
}

/**
 * Rules from a robots.txt body. The group for `SitewatchBot` applies when present, else `*`.
 * Rules are judged on the URL's path and query only: the same host's http and https pages (and a
 * robots.txt reached through a redirect) share one policy.
 */
export function parseRobots(robotsUrl: string, text: string): RobotsPolicy {
  const robots = robotsParser(robotsUrl, text);
  const origin = new URL(robotsUrl).origin;
  const delaySeconds = robots.getCrawlDelay(USER_AGENT_TOKEN);
  const sitemaps: string[] = [];
  for (const entry of robots.getSitemaps()) {
    try {
      sitemaps.push(new URL(entry, robotsUrl).href);
    } catch {
      // An unparsable Sitemap line is the site's typo, not a reason to fail the crawl.
    }
  }
  return {
    source: 'file',
    note: null,
    crawlDelayMs:
      typeof delaySeconds === 'number' && delaySeconds > 0
        ? Math.min(Math.round(delaySeconds * 1000), MAX_CRAWL_DELAY_MS)
        : 0,
    sitemaps,
    isAllowed(url) {
      let parsed: URL;
      try {
        parsed = typeof url === 'string' ? new URL(url) : url;
      } catch {
        return false;
      }
      return robots.isAllowed(origin + parsed.pathname + parsed.search, USER_AGENT_TOKEN) !== false;
    },
  };
}

export interface FetchRobotsOptions {
  timeoutMs?: number;
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

/**
 * Fetches `<origin>/robots.txt`. A 4xx means there are no rules (RFC 9309). On a 5xx or no answer
 * at all RFC 9309 would have us assume a full disallow; we crawl without restrictions instead and
 * say so in `note`: the site owner asked us to check their site, and a flaky robots.txt must not
 * turn a scan into an empty report. A cancelled request still throws.
 */
export async function fetchRobots(
  origin: string | URL,
  options: FetchRobotsOptions = {},
): Promise<RobotsPolicy> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  try {
    const response = await fetchFollowing({
      url: robotsUrl,
      maxRedirects: ROBOTS_MAX_REDIRECTS,
      maxBytes: MAX_ROBOTS_BYTES,
      timeoutMs: options.timeoutMs ?? ROBOTS_TIMEOUT_MS,
      allowPrivate: options.allowPrivate,
      signal: options.signal,
      headers: { accept: 'text/plain, */*;q=0.5' },
    });
    const { status } = response;
    if (status >= 200 && status < 300) return parseRobots(robotsUrl, response.body.toString('utf8'));
    if (status >= 400 && status < 500) return allowAll('none', null);
    return allowAll('unreachable', `robots.txt answered ${status}; crawled without robots rules`);
  } catch (err) {
    if (err instanceof NetError && err.code !== 'aborted') {
      return allowAll(
        'unreachable',
        `robots.txt could not be fetched (${err.detail}); crawled without robots rules`,
      );
    }
    throw err;
  }
}
