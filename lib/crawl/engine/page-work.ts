/**
 * The page work of a crawl step: one leased URL fetched through `lib/net` and judged, an internal
 * HTML page parsed once for its links and SEO facts (an on-site redirect parsed under the URL it
 * landed on), an external target checked. What comes out (`Processed`) goes to the batch writer;
 * the step loop decides what runs when.
 */
import type { LimitHit, PageLink, RunSettings } from '@/lib/db/schema';
import { MAX_HTML_BYTES, MAX_HTML_NESTING, parseHtmlBytes } from '@/lib/html/document';
import { type FollowedResponse, fetchFollowing, header, NetError } from '@/lib/net';
import { extractSeoFacts } from '@/lib/seo/extract';
import {
  checkLink,
  classifyFailure,
  classifyResponse,
  type LinkCheckOutcome,
  msSince,
  retryAfterMs,
} from './check';
import { extractLinks, MAX_LINKS_PER_PAGE } from './extract';
import type { LeasedUrl, NewFrontierUrl, RedirectedPage, UrlResult } from './frontier';
import { admit, pageCapLimitHit, pageCapReason, type RunRules } from './rules';
import type { EngineTuning } from './tuning';
import { isSameSite, normalizeUrl } from './url';
import { type AdaptiveWindow, isBackoffSignal } from './window';

const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)/i;
const TRANSIENT_CODES = new Set(['timeout', 'reset', 'network']);

/** What working one leased URL produced. */
export interface Processed {
  lease: LeasedUrl;
  /** Set when the URL is finished; absent when it is deferred for another attempt. */
  result?: UrlResult;
  deferUntil?: number;
  newUrls: NewFrontierUrl[];

  /** For the root URL only: why the crawl cannot go on. */
  fatal?: string;
  /**
   * The lease redirected to another on-site URL whose page was parsed: it is recorded under that
   * URL, with its links, only if the frontier does not have the URL yet.
   */
  redirectedPage?: RedirectedPage & { newUrls: NewFrontierUrl[] };
  /** Limits that cut this URL's work short (its parse, the page cap): recorded on the run (limits_hit). */
  limits?: LimitHit[];
}

export class PageWork {
  /** URLs this step already queued for insertion: repeated nav links cost one row, not thousands. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly rules: RunRules,
    private readonly settings: RunSettings,
    private readonly tuning: EngineTuning,
    /** The step's adaptive window: each internal response tells it of success or back-off. */
    private readonly window: AdaptiveWindow,
    /** The step's: aborts every request in flight. */
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Fetches an internal URL and judges it; an HTML page of the site is parsed. With `checkOnly`
   * (beyond the page cap) a page is only checked: its status and headers, never its body.
   */
  async fetchInternal(lease: LeasedUrl, checkOnly: boolean): Promise<Processed> {
    const isRoot = lease.url === this.rules.root;
    let response: FollowedResponse;
    const start = performance.now();
    try {
      response = await fetchFollowing({
        url: lease.url,
        timeoutMs: this.tuning.requestTimeoutMs,
        signal: this.signal,
        // A page is read as far as it is parsed (MAX_HTML_BYTES); a longer one arrives marked truncated.
        maxBytes: lease.isAsset || checkOnly ? 0 : MAX_HTML_BYTES,
        ...(lease.isAsset ? {} : { headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' } }),
      });
    } catch (error) {
      if (!(error instanceof NetError) || error.code === 'aborted') throw error;
      if (isBackoffSignal({ errorCode: error.code })) this.window.onBackoff();
      if (TRANSIENT_CODES.has(error.code) && lease.token < this.tuning.maxAttempts) {
        return this.deferred(lease, Date.now() + 1000);
      }
      const outcome = classifyFailure(error, lease.url);
      return this.finished(lease, outcome, {
        fatal: isRoot ? `the root URL ${lease.url} could not be fetched: ${outcome.detail}` : undefined,
      });
    }

    if (isBackoffSignal({ status: response.status })) {
      this.window.onBackoff();
      if (lease.token < this.tuning.maxAttempts) {
        const wait = retryAfterMs(response.headers, 1000, this.tuning.retryAfterCapMs);
        return this.deferred(lease, Date.now() + wait);
      }
    } else {
      this.window.onSuccess();
    }

    const outcome = classifyResponse(response, msSince(start));
    if (outcome.verdict !== 'ok') {
      return this.finished(lease, outcome, {
        fatal: isRoot
          ? `the root URL ${lease.url} answered ${response.status}: ${outcome.detail}`
          : undefined,
      });
    }
    const type = header(response.headers, 'content-type') ?? '';
    const onSite = isSameSite(response.url, this.rules.hostname);
    if (lease.isAsset || !onSite || !HTML_TYPES.test(type) || response.status >= 300) {
      let fatal: string | undefined;
      if (isRoot && !onSite) {
        fatal = `the root URL redirects to ${response.url}, outside ${this.rules.hostname}; the crawl covers ${this.rules.hostname} only`;
      } else if (isRoot) {
        fatal = `the root URL ${lease.url} did not answer with an HTML page (content-type ${type || 'missing'})`;
      }
      return this.finished(lease, outcome, { fatal });
    }
    if (checkOnly) {
      // A page the cap kept from being crawled: it has its verdict, and the run says it was cut short.
      const checked = {
        ...outcome,
        detail: `checked but not crawled: ${pageCapReason(this.settings).reason}`,
      };
      return { ...this.finished(lease, checked, {}), limits: [pageCapLimitHit(this.settings)] };
    }
    const landed =
      this.rules.strip.size > 0 ? normalizeUrl(response.url, undefined, this.rules.strip) : response.url;
    if (landed === lease.url || landed === null) return this.parsePage(lease, response, outcome, lease.url);
    // Redirected to another page of the site: that page is parsed under its own URL (see Processed).
    const target = admit(this.rules, response.url);
    if (target === null || target.kind !== 'internal') return this.finished(lease, outcome, {});
    const parsed = this.parsePage(lease, response, outcome, target.url);
    this.seen.add(target.url);
    return {
      lease,
      result: toResult(lease, outcome, null, null),
      newUrls: [],
      ...(parsed.limits ? { limits: parsed.limits } : {}),
      redirectedPage: {
        url: target.url,
        depth: lease.depth,
        foundOn: lease.url,
        statusCode: response.status,
        contentType: outcome.contentType,
        responseMs: outcome.responseMs,
        seoFacts: parsed.result?.seoFacts ?? null,
        links: parsed.result?.links ?? [],
        newUrls: parsed.newUrls,
      },
    };
  }

  /** Parses one HTML page (once: links and SEO facts come from the same document) as `pageUrl`. */
  private parsePage(
    lease: LeasedUrl,
    response: FollowedResponse,
    outcome: LinkCheckOutcome,
    pageUrl: string,
  ): Processed {
    const { document, truncated } = parseHtmlBytes(response.body);
    const { links, linksCapped } = extractLinks(document, response.url);
    const seoFacts = this.rules.seo
      ? extractSeoFacts(document, response.url, {
          xRobotsTag: joinedHeader(response.headers['x-robots-tag']),
        })
      : null;

    const newUrls: NewFrontierUrl[] = [];
    const pageLinks: PageLink[] = [];
    const onPage = new Set<string>();
    for (const link of links) {
      const target = admit(this.rules, link.url);
      if (target === null || target.url === pageUrl || onPage.has(target.url)) continue;
      onPage.add(target.url);
      pageLinks.push([target.url, link.text, link.selector, link.attrs]);
      if (this.seen.has(target.url)) continue;
      this.seen.add(target.url);
      newUrls.push({
        url: target.url,
        kind: target.kind,
        depth: lease.depth + 1,
        foundOn: pageUrl,
        isAsset: link.asset,
      });
    }
    if (this.seen.size > 200_000) this.seen.clear();
    const limits: LimitHit[] = [];
    if (truncated !== null || response.truncated) {
      limits.push({
        limit: 'html-bytes',
        detail:
          truncated === 'nesting'
            ? `${pageUrl} nests elements more than ${MAX_HTML_NESTING} deep: it was read for links only down to there`
            : `${pageUrl} is larger than ${MAX_HTML_BYTES} bytes: only its first ${MAX_HTML_BYTES} bytes were read for links`,
      });
    }
    if (linksCapped) {
      limits.push({
        limit: 'links-per-page',
        detail: `${pageUrl} has more than ${MAX_LINKS_PER_PAGE} links: only its first ${MAX_LINKS_PER_PAGE} were checked`,
      });
    }
    const processed: Processed = { lease, result: toResult(lease, outcome, seoFacts, pageLinks), newUrls };
    if (limits.length > 0) processed.limits = limits;
    return processed;
  }

  /** Checks an external target (status only, through the per-host limits the step applies). */
  async checkExternal(lease: LeasedUrl): Promise<Processed> {
    const outcome = await checkLink(lease.url, {
      timeoutMs: this.tuning.requestTimeoutMs,
      retryAfterCapMs: this.tuning.retryAfterCapMs,
      signal: this.signal,
    });
    return this.finished(lease, outcome, {});
  }

  private finished(
    lease: LeasedUrl,
    outcome: LinkCheckOutcome,
    extra: { fatal?: string | undefined },
  ): Processed {
    const processed: Processed = {
      lease,
      result: toResult(lease, outcome, null, null),
      newUrls: [],
    };
    if (extra.fatal) processed.fatal = extra.fatal;
    return processed;
  }

  private deferred(lease: LeasedUrl, until: number): Processed {
    return { lease, deferUntil: until, newUrls: [] };
  }
}

function toResult(
  lease: LeasedUrl,
  outcome: LinkCheckOutcome,
  seoFacts: unknown,
  /** The page's links when it was crawled as a page; null for anything only checked. */
  links: PageLink[] | null,
): UrlResult {
  return {
    url: lease.url,
    token: lease.token,
    verdict: outcome.verdict,
    statusCode: outcome.statusCode,
    redirectChain: outcome.redirectChain,
    detail: outcome.detail,
    contentType: outcome.contentType,
    responseMs: outcome.responseMs,
    seoFacts,
    isPage: links !== null,
    links,
  };
}

function joinedHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
