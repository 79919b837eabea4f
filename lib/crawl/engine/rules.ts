import type { LimitHit, RunSettings } from '@/lib/db/schema';
import { parseUrl } from '@/lib/net/url';
import { MAX_URL_LENGTH } from './frontier';
import { policyFrom } from './robots';
import { compileExcludes, isSameSite, normalizeUrl } from './url';

/*
 * The rules a run is judged by, rebuilt from the settings it captured at start (robots.txt
 * included, once seeded): which URLs enter the frontier, as what, and how many pages it may crawl.
 */

/** The frontier key of the run's root URL. */
export function rootFrontierUrl(settings: RunSettings): string {
  return normalizeUrl(settings.rootUrl, undefined, settings.stripParams) ?? settings.rootUrl;
}

/** Pages this run may crawl: maxPages, or less when the monthly allowance is nearly used. */
export function pageCap(settings: RunSettings): number {
  return settings.allowanceRemaining === null
    ? settings.maxPages
    : Math.min(settings.maxPages, settings.allowanceRemaining);
}

export function allowanceMessage(): string {
  return `the monthly crawl allowance is used up; pages beyond it were not crawled (turn on overage to keep crawling)`;
}

/** Why the run's page cap is what it is: the monthly allowance, or the site's maxPages. */
export function pageCapReason(settings: RunSettings): { limit: 'allowance' | 'max-pages'; reason: string } {
  return settings.allowanceRemaining !== null && settings.allowanceRemaining < settings.maxPages
    ? { limit: 'allowance', reason: allowanceMessage() }
    : { limit: 'max-pages', reason: `the site's maxPages (${settings.maxPages}) was reached` };
}

/** The limit a run records when its page cap stopped pages from being crawled. */
export function pageCapLimitHit(settings: RunSettings): LimitHit {
  const cap = pageCapReason(settings);
  return {
    limit: cap.limit,
    detail: `The crawl stopped after ${pageCap(settings)} pages (${cap.reason}); the links on the pages crawled were all checked.`,
  };
}

/** Everything a step needs to judge URLs by the run's captured rules. */
export interface RunRules {
  hostname: string;
  root: string;
  strip: Set<string>;
  isExcluded: (url: string) => boolean;
  isAllowed: (url: string) => boolean;
  crawlDelayMs: number;
  seo: boolean;
}

/** The stored robots.txt's rules; a run seeded without one (or before seeding) has none. */
function robotsOf(settings: RunSettings) {
  const stored = settings.robots;
  return policyFrom(
    stored
      ? {
          url: stored.url,
          text: stored.text,
          source: stored.text === null ? 'none' : 'file',
          note: stored.note,
        }
      : { url: '', text: null, source: 'none', note: null },
  );
}

/**
 * Distinct URLs whose exclude and robots decisions one step remembers. Pages repeat their links
 * (the same navigation on every page), so a URL is judged once rather than once per occurrence;
 * past this many the memory is emptied and refills. Each of the two memories then holds at most
 * 2,000 URLs (themselves at most MAX_URL_LENGTH characters): a few hundred KB for typical URLs.
 */
export const MAX_REMEMBERED_DECISIONS = 2_000;

/** `judge`, answering a URL it has already judged from memory. */
export function rememberDecisions(judge: (url: string) => boolean): (url: string) => boolean {
  const decisions = new Map<string, boolean>();
  return (url) => {
    let decision = decisions.get(url);
    if (decision === undefined) {
      if (decisions.size >= MAX_REMEMBERED_DECISIONS) decisions.clear();
      decision = judge(url);
      decisions.set(url, decision);
    }
    return decision;
  };
}

/** The run's rules, compiled once (exclude globs and robots.txt) for the step that asks. */
export function rulesOf(settings: RunSettings): RunRules {
  const policy = robotsOf(settings);
  const excluded = compileExcludes(settings.excludePaths);
  return {
    hostname: settings.hostname,
    root: rootFrontierUrl(settings),
    strip: new Set(settings.stripParams),
    isExcluded: rememberDecisions(excluded),
    isAllowed: rememberDecisions((url) => policy.isAllowed(url)),
    crawlDelayMs: policy.crawlDelayMs,
    seo: settings.seoEnabled,
  };
}

/**
 * Where a discovered URL goes: null when it must never enter the frontier (another scheme than
 * http(s), too long, an excluded or robots-disallowed internal path), else its frontier key and
 * kind; a link that is not a URL at all enters as external, to be reported invalid.
 */
export function admit(rules: RunRules, raw: string): { url: string; kind: 'internal' | 'external' } | null {
  if (raw.length > MAX_URL_LENGTH) return null;
  const url = rules.strip.size > 0 ? normalizeUrl(raw, undefined, rules.strip) : raw;
  // A link that is not a URL at all (`http://`) is kept under its own text, as an external check
  // that reports it invalid without a request (see invalidUrlOutcome); other schemes stay out.
  if (url === null) return parseUrl(raw) === null ? { url: raw, kind: 'external' } : null;
  if (url.length > MAX_URL_LENGTH) return null;
  // Without stripParams an invalid link reaches this line as is: no host can be read in it.
  if (!isSameSite(url, rules.hostname)) return { url, kind: 'external' };
  if (rules.isExcluded(url) || !rules.isAllowed(url)) return null;
  return { url, kind: 'internal' };
}
