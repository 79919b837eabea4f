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

/** robots.txt as fetched, before parsing: what a run stores so every later step applies the same rules. */
export interface RobotsFetch {
  url: string;
  /** The body when rules were read (2xx); null otherwise. */
  text: string | null;
  source: RobotsPolicy['source'];
  note: string | null;
}

/**
 * Fetches `<origin>/robots.txt`. A 4xx means there are no rules (RFC 9309). On a 5xx or no answer
 * at all RFC 9309 would have us assume a full disallow; we crawl without restrictions instead and
 * say so in `note`: the site owner asked us to check their site, and a flaky robots.txt must not
 * turn a scan into an empty report. A cancelled request still throws.
 */
export async function fetchRobotsText(
  origin: string | URL,
  options: FetchRobotsOptions = {},
): Promise<RobotsFetch> {
  const url = new URL('/robots.txt', origin).href;
  try {
    const response = await fetchFollowing({
      url,
      maxRedirects: ROBOTS_MAX_REDIRECTS,
      maxBytes: MAX_ROBOTS_BYTES,
      timeoutMs: options.timeoutMs ?? ROBOTS_TIMEOUT_MS,
      allowPrivate: options.allowPrivate,
      signal: options.signal,
      headers: { accept: 'text/plain, */*;q=0.5' },
    });
    const { status } = response;
    if (status >= 200 && status < 300) {
      return { url, text: response.body.toString('utf8'), source: 'file', note: null };
    }
    if (status >= 400 && status < 500) return { url, text: null, source: 'none', note: null };
    return {
      url,
      text: null,
      source: 'unreachable',
      note: `robots.txt answered ${status}; crawled without robots rules`,
    };
  } catch (err) {
    if (err instanceof NetError && err.code !== 'aborted') {
      return {
        url,
        text: null,
        source: 'unreachable',
        note: `robots.txt could not be fetched (${err.detail}); crawled without robots rules`,
      };
    }
    throw err;
  }
}

/** The policy for a fetched (or stored) robots.txt. */
export function policyFrom(fetched: RobotsFetch): RobotsPolicy {
  if (fetched.text !== null) return parseRobots(fetched.url, fetched.text);
  return allowAll(fetched.source === 'file' ? 'none' : fetched.source, fetched.note);
}

/** `fetchRobotsText` then `policyFrom`. */
export async function fetchRobots(
  origin: string | URL,
  options: FetchRobotsOptions = {},
): Promise<RobotsPolicy> {
  return policyFrom(await fetchRobotsText(origin, options));
}
