import { fetchFollowing, NetError, USER_AGENT_TOKEN } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';

/*
 * robots.txt per RFC 9309, with Google's reading of it (github.com/google/robotstxt) where the RFC
 * leaves room: groups for our product token are merged and replace the `*` groups; a group is
 * closed only by an allow or disallow line; the longest matching rule wins and allow wins a tie;
 * `*` matches any run of characters and a final `$` anchors the end. A file is read once into
 * rules sorted by precedence, so judging a URL stops at the first rule that matches it; a rule
 * costs a prefix test and one left-to-right search for the parts between its `*`s (no
 * backtracking).
 */

/** A site may slow us down with Crawl-delay, but not beyond this per request. */
export const MAX_CRAWL_DELAY_MS = 10_000;
/** RFC 9309 asks crawlers to parse at least 500 KiB; anything past it is ignored. */
const MAX_ROBOTS_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;
/** RFC 9309: follow at least five redirects for robots.txt. */
const ROBOTS_MAX_REDIRECTS = 5;
/**
 * Rules kept for the group that applies to us. A URL may be judged against all of them, so the
 * count bounds the cost of a check: a 500 KiB file holds tens of thousands of wildcard rules
 * (14,000 cost 16 ms per URL through the previous parser; 2,000 cost about 0.2 ms here). Real
 * files stay well below; a few hundred rules is already a large site. Rules past the cap are
 * dropped, and the run's robots note says so.
 */
export const MAX_ROBOTS_RULES = 2_000;
/** `Sitemap:` lines kept: the sitemap reader fetches at most 50 files in all, so more are never read. */
export const MAX_ROBOTS_SITEMAPS = 50;
/** Google's bound: eight times the longest URL browsers take (2,083); the rest of a line is ignored. */
export const MAX_ROBOTS_LINE_LENGTH = 8 * 2083;

export interface RobotsPolicy {
  /** `file`: rules were read; `none`: no robots.txt (4xx); `unreachable`: 5xx or no answer. */
  source: 'file' | 'none' | 'unreachable';
  /**
   * What a report should say about robots.txt, in plain words: why the crawl runs without rules
   * when it could not be read, or that only part of a very large file was applied.
   */
  note: string | null;
  /** Delay between requests asked for by Crawl-delay, capped at MAX_CRAWL_DELAY_MS; 0 when none. */
  crawlDelayMs: number;
  /** Absolute URLs from `Sitemap:` lines, at most MAX_ROBOTS_SITEMAPS. */
  sitemaps: string[];
  /** Rules the file has for us (our group, else `*`), and how many of them apply (the cap). */
  rules: { found: number; applied: number };
  /** Whether SitewatchBot (else the `*` group) may fetch this URL's path. */
  isAllowed(url: string | URL): boolean;
}

function allowAll(source: 'none' | 'unreachable', note: string | null): RobotsPolicy {
  return {
    source,
    note,
    crawlDelayMs: 0,
    sitemaps: [],
    rules: { found: 0, applied: 0 },
    isAllowed: () => true,
  };
}

/**
 * Rules from a robots.txt body. The groups for `SitewatchBot` apply when present, else `*`.
 * Rules are judged on the URL's path and query only: the same host's http and https pages (and a
 * robots.txt reached through a redirect) share one policy.
 */
export function parseRobots(robotsUrl: string, text: string): RobotsPolicy {
  const read = readRobots(text, USER_AGENT_TOKEN);
  const group = read.ours ?? read.everyone;
  const rules = group.rules.map(compileRule).sort(byPrecedence);
  const sitemaps: string[] = [];
  for (const entry of read.sitemaps) {
    const url = parseUrl(entry, robotsUrl);
    // An unparsable Sitemap line is the site's typo, not a reason to fail the crawl.
    if (url) sitemaps.push(url.href);
  }
  const delaySeconds = group.crawlDelay;
  return {
    source: 'file',
    note:
      group.found > rules.length
        ? `robots.txt has ${group.found} rules for ${read.ours ? USER_AGENT_TOKEN : 'all crawlers (*)'}; the first ${rules.length} were applied`
        : null,
    crawlDelayMs:
      delaySeconds !== null && delaySeconds > 0
        ? Math.min(Math.round(delaySeconds * 1000), MAX_CRAWL_DELAY_MS)
        : 0,
    sitemaps,
    rules: { found: group.found, applied: rules.length },
    isAllowed(url) {
      const parsed = typeof url === 'string' ? parseUrl(url) : url;
      if (parsed === null) return false;
      const path = upperCaseEscapes(parsed.pathname + parsed.search);
      // Sorted by precedence: the first rule that matches decides.
      for (const rule of rules) if (matchesRule(rule, path)) return rule.allow;
      return true;
    },
  };
}

interface Group {
  /** Rule lines as written (value, allow), at most MAX_ROBOTS_RULES. */
  rules: { value: string; allow: boolean }[];
  /** Non-empty rule lines the file has for this group, kept or not. */
  found: number;
  crawlDelay: number | null;
}

const newGroup = (): Group => ({ rules: [], found: 0, crawlDelay: null });

/**
 * The file's lines sorted into what concerns `agent`: its merged groups (null when no group names
 * it), the merged `*` groups, and the sitemaps. Lines before any User-agent line are ignored.
 */
function readRobots(text: string, agent: string) {
  const ours = newGroup();
  const everyone = newGroup();
  const sitemaps: string[] = [];
  let named = false;
  // The group being read: whether its User-agent lines name us or `*`, and whether a rule has
  // been read (the next User-agent line then starts a new group).
  let forUs = false;
  let forEveryone = false;
  let ruleRead = false;

  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = directive(raw.slice(0, MAX_ROBOTS_LINE_LENGTH));
    if (line === null) continue;
    switch (line.key) {
      case 'user-agent': {
        if (ruleRead) [forUs, forEveryone, ruleRead] = [false, false, false];
        if (/^\*(\s|$)/.test(line.value)) forEveryone = true;
        else if (productToken(line.value).toLowerCase() === agent.toLowerCase()) forUs = named = true;
        break;
      }
      case 'allow':
      case 'disallow': {
        if (!forUs && !forEveryone) break;
        ruleRead = true;
        // An empty rule matches nothing that counts (RFC 9309: priority 0).
        if (line.value === '') break;
        const group = forUs ? ours : everyone;
        group.found++;
        if (group.rules.length < MAX_ROBOTS_RULES)
          group.rules.push({ value: line.value, allow: line.key === 'allow' });
        break;
      }
      case 'crawl-delay': {
        const seconds = Number(line.value);
        if (line.value === '' || !Number.isFinite(seconds)) break;
        if (forUs) ours.crawlDelay = seconds;
        else if (forEveryone) everyone.crawlDelay = seconds;
        break;
      }
      case 'sitemap':
        if (line.value !== '' && sitemaps.length < MAX_ROBOTS_SITEMAPS) sitemaps.push(line.value);
        break;
    }
  }
  return { ours: named ? ours : null, everyone, sitemaps };
}

type Key = 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap';

/** Keys by their lower-case spelling, with the typos Google accepts. */
const KEYS: Record<string, Key> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'crawl-delay': 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
};

/**
 * `key: value` from one line, comment removed; null for blank lines and keys we do not use. Like
 * Google, a line that forgot its colon (`Disallow /x`) still counts when it has exactly two words.
 */
function directive(raw: string): { key: Key; value: string } | null {
  const hash = raw.indexOf('#');
  const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
  if (line === '') return null;
  let key: string;
  let value: string;
  const colon = line.indexOf(':');
  if (colon !== -1) {
    key = line.slice(0, colon);
    value = line.slice(colon + 1);
  } else {
    const words = line.split(/[ \t]+/);
    if (words.length !== 2) return null;
    [key, value] = words as [string, string];
  }
  const known = KEYS[key.trim().toLowerCase()];
  return known ? { key: known, value: value.trim() } : null;
}

/** The product token a User-agent line names: its leading letters, `-` and `_` (`SitewatchBot/1.0` names SitewatchBot). */
function productToken(value: string): string {
  return /^[A-Za-z_-]*/.exec(value)?.[0] ?? '';
}

interface Rule {
  allow: boolean;
  /** RFC 9309: the number of octets in the (encoded) pattern; the longest match wins. */
  priority: number;
  /** The pattern cut at each `*`, `$` removed: a path matches when the parts appear in order. */
  parts: string[];
  /** The pattern ended with `$`: the last part must end the path. */
  anchored: boolean;
}

function compileRule({ value, allow }: { value: string; allow: boolean }): Rule {
  const pattern = encodePattern(value);
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return { allow, priority: pattern.length, parts: body.split('*'), anchored };
}

/** Longest pattern first; between equals, allow first (RFC 9309: allow wins a tie). Stable. */
function byPrecedence(a: Rule, b: Rule): number {
  return b.priority - a.priority || Number(b.allow) - Number(a.allow);
}

/**
 * Whether the rule matches the path from its start. The parts between `*`s are found left to
 * right, each at its first occurrence: since `*` matches anything, the earliest placement leaves
 * the most room for what follows, so no other placement needs trying.
 */
function matchesRule(rule: Rule, path: string): boolean {
  const { parts, anchored } = rule;
  const first = parts[0]!;
  if (!path.startsWith(first)) return false;
  if (parts.length === 1) return !anchored || path.length === first.length;
  // The cheap test first: an anchored rule's end must end the path.
  if (anchored && !path.endsWith(parts[parts.length - 1]!)) return false;
  let at = first.length;
  const lastIndex = parts.length - 1;
  for (let k = 1; k < lastIndex; k++) {
    const part = parts[k]!;
    if (part === '') continue;
    const found = path.indexOf(part, at);
    if (found === -1) return false;
    at = found + part.length;
  }
  const last = parts[lastIndex]!;
  if (anchored) return path.endsWith(last) && path.length - last.length >= at;
  return last === '' || path.indexOf(last, at) !== -1;
}

/**
 * What a URL parser always percent-encodes in a path or query: controls, space, `"`, `<`, `>` and
 * everything beyond ASCII.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among what it encodes.
const ENCODED_IN_URLS = /[\u0000-\u0020"<>\u007f-\u{10ffff}]/gu;

/**
 * A pattern in the form URLs are compared in (RFC 9309 section 2.2.2): what a URL parser would
 * percent-encode is encoded (UTF-8), and every escape is in upper case.
 */
function encodePattern(value: string): string {
  const encoded = value.replace(ENCODED_IN_URLS, (ch) =>
    // A lone surrogate has no UTF-8 form; the URL parser writes U+FFFD for it too.
    encodeURIComponent(ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? '\ufffd' : ch),
  );
  return upperCaseEscapes(encoded);
}

function upperCaseEscapes(text: string): string {
  return text.includes('%') ? text.replace(/%[0-9a-f]{2}/gi, (sequence) => sequence.toUpperCase()) : text;
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
