import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { sites } from './sites';

const counter = (name: string) => integer(name).notNull().default(0);

export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    started_at: epochMs('started_at').notNull(),
    finished_at: epochMs('finished_at'),
    state: text('state', { enum: ['running', 'completed', 'failed'] }).notNull(),
    kind: text('kind', { enum: ['crawl', 'a11y'] }).notNull(),
    pages_crawled: counter('pages_crawled'),
    links_checked: counter('links_checked'),
    broken_count: counter('broken_count'),
    pages_with_broken_count: counter('pages_with_broken_count'),
    internal_broken: counter('internal_broken'),
    external_broken: counter('external_broken'),
    a11y_score: integer('a11y_score'),
    /**
     * The accessibility score as the run finished, with the suppressions and excludePaths of that
     * moment; never recomputed. `a11y_score` is the latest run's figure kept in step with later
     * suppressions and excludePaths (the spec's stored score); History shows this one, so a past
     * run reads as it was.
     */
    a11y_scan_score: integer('a11y_scan_score'),
    a11y_critical: counter('a11y_critical'),
    a11y_serious: counter('a11y_serious'),
    a11y_moderate: counter('a11y_moderate'),
    a11y_minor: counter('a11y_minor'),
    a11y_pages_scanned: counter('a11y_pages_scanned'),
    a11y_issue_count: counter('a11y_issue_count'),
    a11y_resolved: counter('a11y_resolved'),
    seo_score: integer('seo_score'),
    seo_critical: counter('seo_critical'),
    seo_serious: counter('seo_serious'),
    seo_moderate: counter('seo_moderate'),
    seo_minor: counter('seo_minor'),
    seo_pages_scanned: counter('seo_pages_scanned'),
    seo_issue_count: counter('seo_issue_count'),
    error: text('error'),
    /**
     * The limits that cut this run's result short (page cap, caps on hostile input), one entry per
     * limit, first detail kept: a partial result must never read as complete. See lib/crawl/runs/limits.ts.
     */
    limits_hit: jsonb('limits_hit').$type<LimitHit[]>().notNull().default([]),
    // Internal (not part of the Run resource): how the run was started and its live phase.
    trigger: text('trigger', { enum: ['schedule', 'manual'] })
      .notNull()
      .default('manual'),
    chain_a11y: integer('chain_a11y').notNull().default(0),
    phase: text('phase', { enum: ['seeding', 'crawling', 'finalizing', 'done'] })
      .notNull()
      .default('seeding'),
    window: integer('window').notNull().default(2),
    /** Settings captured at start so a run is judged by the rules it started with. */
    settings: jsonb('settings').$type<RunSettings>(),
    heartbeat_at: epochMs('heartbeat_at'),
    /**
     * The accessibility render pass of this run (lib/a11y/runs/pass.ts): null when the run renders
     * nothing, else seeding -> rendering -> finalizing -> done. A chained crawl is `completed` once
     * its crawl is finalized and its pass moves on in this column, so its broken-link results show
     * while the pages render.
     */
    a11y_phase: text('a11y_phase', { enum: ['seeding', 'rendering', 'finalizing', 'done'] }),
    /** What the pass renders and may render, captured when it starts (lib/a11y/runs/pass.ts). */
    a11y_pass: jsonb('a11y_pass').$type<A11yPassSettings>(),
  },
  (t) => [
    index('runs_site_idx').on(t.tenant_id, t.site_id, t.kind, t.started_at),
    index('runs_running_idx').on(t.state).where(sql`${t.state} = 'running'`),
    // At most one running crawl per site: the database settles simultaneous triggers.
    uniqueIndex('runs_one_running_crawl_idx')
      .on(t.site_id)
      .where(sql`${t.state} = 'running' and ${t.kind} = 'crawl'`),
    // At most one standalone accessibility run per site, settled the same way.
    uniqueIndex('runs_one_running_a11y_idx')
      .on(t.site_id)
      .where(sql`${t.state} = 'running' and ${t.kind} = 'a11y'`),
    // The resume sweep and the live state: render passes still in progress.
    index('runs_a11y_active_idx')
      .on(t.site_id)
      .where(sql`${t.a11y_phase} in ('seeding', 'rendering', 'finalizing')`),
  ],
);

export type A11yPassSettings = {
  /** The crawl whose persisted pages are rendered: the run itself when chained. Null: none existed. */
  sourceRunId: string | null;
  /** Pages this pass may still render under the monthly allowance (null: overage on, no cap). Set by seeding. */
  allowanceRemaining?: number | null;
};

/** Why a run's result is partial: which limit was reached, in plain words. */
export type LimitHit = { limit: RunLimit; detail: string };

/** The limits a run can hit; each is recorded once per run (lib/crawl/runs/limits.ts). */
export const RUN_LIMITS = [
  'allowance',
  'max-pages',
  'links-per-page',
  'html-bytes',
  'external-checks',
  'unprocessable-urls',
] as const;
export type RunLimit = (typeof RUN_LIMITS)[number];

/** One response of a stored redirect chain: its status and the URL that answered it. */
export type StoredRedirectHop = { status: number; url: string };

/** A link element's identifying attributes (id, class, rel, title, aria-label) that it has. */
export type LinkAttrs = Record<string, string>;

/**
 * One outgoing link of a crawled page: target URL, anchor text, positional selector, attributes.
 * (Crawls stored before migration 0029 hold the attributes as a JSON-encoded string; finalization
 * reads either form with `(link ->> 3)::jsonb`.)
 */
export type PageLink = [
  target: string,
  text: string | null,
  selector: string | null,
  attrs: LinkAttrs | null,
];

export type RunSettings = {
  rootUrl: string;
  hostname: string;
  maxPages: number;
  maxConcurrency: number;
  excludePaths: string[];
  stripParams: string[];
  seoEnabled: boolean;
  scannerEnabled: boolean;
  /** Pages this run may still crawl under the monthly allowance (null: no cap beyond maxPages). */
  allowanceRemaining: number | null;
  /** Set by seeding: robots.txt as read, so every worker of the run applies the same rules. */
  robots?: { url: string; text: string | null; note: string | null };
};

/**
 * What the pages list (lib/crawl/views/pages.ts) derives from a frontier row, as SQL over crawl_urls's own
 * columns: the URL's own status (the first hop's when it redirected) and its count of outgoing links
 * (null when it was not parsed as a page). The sort indexes below are on these very expressions, so
 * the list's ORDER BY ... LIMIT reads a page from an index instead of sorting the run's rows.
 */
export const crawlUrlOwnStatus = sql`case when redirect_chain is null then status_code else coalesce((redirect_chain -> 0 ->> 'status')::int, status_code) end`;
export const crawlUrlOutlinks = sql`case when links is null then null else jsonb_array_length(links) end`;

/**
 * The target URLs of a page's links as a JSON array (null when it has none): the expression of
 * crawl_urls_link_targets_idx, so a query must write it the same way to use that index.
 */
export const linkTargets = sql`jsonb_path_query_array(links, '$[*][0]')`;

/**
 * The crawl frontier: every distinct URL a run discovered, internal pages to fetch and parse and
 * external targets to check. Leased in batches with FOR UPDATE SKIP LOCKED so any number of workers
 * can share a run; an expired lease returns the URL to the pool.
 */
export const crawlUrls = pgTable(
  'crawl_urls',
  {
    run_id: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    /** COLLATE "C" (migration 0005, which drizzle's column builders cannot express): byte order. */
    url: text('url').notNull(),
    kind: text('kind', { enum: ['internal', 'external'] }).notNull(),
    depth: integer('depth').notNull().default(0),
    state: text('state', { enum: ['pending', 'leased', 'done'] })
      .notNull()
      .default('pending'),
    lease_expires_at: epochMs('lease_expires_at'),
    found_on: text('found_on'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * Leases of this URL that expired while a worker held it (the worker crashed or hung), as opposed
     * to a deferral (`deferred`): on the second one the URL is finished as an error, never leased again.
     */
    lost_leases: integer('lost_leases').notNull().default(0),
    /** 1 while the lease is a Retry-After/back-off deferral: its expiry is planned, not a death. */
    deferred: integer('deferred').notNull().default(0),
    /** Outcome once done: ok, broken, error, unverifiable, skipped (e.g. beyond maxPages). */
    verdict: text('verdict'),
    status_code: integer('status_code'),
    /** Every response of a redirected request, the final one included; null: no redirect. */
    redirect_chain: jsonb('redirect_chain').$type<StoredRedirectHop[]>(),
    detail: text('detail'),
    /** The crawled page's SEO facts (internal HTML pages with the SEO app on). */
    seo_facts: jsonb('seo_facts'),
    /**
     * The page's outgoing links (edges), one entry per distinct target:
     * `[target_url, link_text, link_selector, link_attrs]`. Kept on the page's own row so a crawled
     * page costs one write, not one per link; finalization joins them to the targets' verdicts.
     */
    links: jsonb('links').$type<PageLink[]>(),
    is_page: integer('is_page').notNull().default(0),
    /** Media type of the final response (`text/html`, parameters dropped); null without a response. */
    content_type: text('content_type'),
    /** Milliseconds from the request until the final response was read (pages: their body), hops included. */
    response_ms: integer('response_ms'),
    /**
     * Distinct crawled pages linking to this URL, counted at finalization from the pages' `links`
     * (null until then): stored so the pages list can sort and page by it.
     */
    inlinks: integer('inlinks'),
    /**
     * 1 when the URL was only seen as an embedded resource (img, script, stylesheet, media): it is
     * checked without downloading or parsing its body. Pages (a, area, iframe, meta refresh) are 0.
     */
    is_asset: integer('is_asset').notNull().default(0),
    seq: integer('seq').generatedAlwaysAsIdentity(),
  },
  (t) => [
    primaryKey({ columns: [t.run_id, t.url] }),
    // Workers lease internal pages and external checks from separate queues, oldest first.
    index('crawl_urls_pending_idx').on(t.run_id, t.kind, t.seq).where(sql`${t.state} = 'pending'`),
    index('crawl_urls_leased_idx').on(t.run_id, t.lease_expires_at).where(sql`${t.state} = 'leased'`),
    // URLs whose worker died once are leased one at a time, apart from the rest (leaseSuspect).
    index('crawl_urls_suspect_idx')
      .on(t.run_id, t.seq)
      .where(sql`${t.state} = 'pending' and ${t.lost_leases} > 0`),
    // The pages list's sorts (lib/crawl/views/pages.ts SORT_KEY, then url) over a finished run's rows, which
    // finalization gives their inlinks all at once: a running crawl's rows are not indexed, so the
    // crawl's own writes maintain none of these.
    ...(
      [
        ['status', sql`coalesce(${crawlUrlOwnStatus}, -1)`],
        ['depth', sql`${t.depth}`],
        ['inlinks', sql`coalesce(${t.inlinks}, -1)`],
        ['outlinks', sql`coalesce(${crawlUrlOutlinks}, -1)`],
        ['response', sql`coalesce(${t.response_ms}, -1)`],
      ] as const
    ).map(([name, key]) =>
      index(`crawl_urls_sort_${name}_idx`).on(t.run_id, key, t.url).where(sql`${t.inlinks} is not null`),
    ),
    // A URL's inlinks (lib/crawl/views/url-detail.ts): the pages whose links name it as a target, found by
    // containment in their target URLs alone (one entry per target, not per anchor text or selector).
    // Over counted rows only, like the sorts: finalization fills it once, the crawl's writes never do.
    // The walk through a run's linking pages in URL order (url-detail.ts, a URL on many pages) over the
    // pages alone: without it the walk reads every external target and asset row it passes (20,000
    // before the first page of a million-page run, 90 ms). Filled by finalization, like the others.
    index('crawl_urls_linking_pages_idx')
      .on(t.run_id, t.url)
      .where(sql`${t.inlinks} is not null and ${t.links} is not null`),
    index('crawl_urls_link_targets_idx')
      .using('gin', sql`${linkTargets} jsonb_path_ops`)
      .where(sql`${t.inlinks} is not null`),
  ],
);

export const brokenLinks = pgTable(
  'broken_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    run_id: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    source_url: text('source_url').notNull(),
    target_url: text('target_url').notNull(),
    status: text('status', { enum: ['broken', 'error'] }).notNull(),
    status_code: integer('status_code'),
    kind: text('kind', { enum: ['internal', 'external'] }).notNull(),
    /** The target's redirect chain, copied from its crawl_urls row. */
    redirect_chain: jsonb('redirect_chain').$type<StoredRedirectHop[]>(),
    detail: text('detail'),
    created_at: epochMs('created_at').notNull(),
    link_text: text('link_text'),
    link_selector: text('link_selector'),
    link_attrs: jsonb('link_attrs').$type<LinkAttrs>(),
    /**
     * The target's linking pages in this report (its rows), on each of its rows: written by
     * finalization so the report's default order, most-linked first, is an index walk rather than a
     * grouping of every row. Null on rows written another way: those reports are grouped on read.
     */
    linking_pages: integer('linking_pages'),
  },
  (t) => [
    uniqueIndex('broken_links_run_target_source_idx').on(t.run_id, t.target_url, t.source_url),
    // Targets most-linked first, then by URL in byte order: ascending on both, so one row comparison
    // finds the target after a page's last (lib/crawl/views/broken-targets.ts, mostLinkedTargets).
    index('broken_links_most_linked_idx')
      .on(t.run_id, sql`(-${t.linking_pages})`, sql`(${t.target_url} collate "C")`)
      .where(sql`${t.linking_pages} is not null`),
    index('broken_links_tenant_idx').on(t.tenant_id, t.run_id),
  ],
);

/** One stored SEO issue: `[check, impact, page_url, detail]`. */
export type StoredSeoIssue = [check: string, impact: string, pageUrl: string, detail: string];

/** `run_changes.seo`: the counts of each side and their first issues as [check, pageUrl], by page then check. */
export type StoredSeoChanges = {
  previousRunId: string;
  newCount: number;
  fixedCount: number;
  newIssues: [check: string, pageUrl: string][];
  fixedIssues: [check: string, pageUrl: string][];
};

/** `run_changes.broken`: the counts of each side and their first targets, in code-unit order. */
export type StoredBrokenChanges = {
  previousRunId: string;
  newCount: number;
  fixedCount: number;
  newTargets: string[];
  fixedTargets: string[];
};

/**
 * What changed in a crawl's reports against the previous completed crawl (`previousRunId` in each),
 * differenced once when the run finalized: the SEO issues (migration 0037: at 1,000,000 pages the
 * difference of two runs' issue documents takes seconds) and the broken targets (every page of
 * the broken-targets report says what changed, and differencing two runs of 20,000 broken targets
 * on each read took longer than the page). Each side is counted and its first MAX_LISTED_CHANGES
 * listed. A row of its own (migration 0040), not columns of `runs`: the lists run to a few hundred
 * kilobytes, which the reports that show them read and no other read of a run (the history's
 * pages, the live state polled while a crawl runs) should carry. No row, or a null side: nothing
 * stored (no previous run, a run finalized before), and the reports difference on read.
 */
export const runChanges = pgTable(
  'run_changes',
  {
    run_id: uuid('run_id')
      .primaryKey()
      .references(() => runs.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    seo: jsonb('seo').$type<StoredSeoChanges>(),
    broken: jsonb('broken').$type<StoredBrokenChanges>(),
  },
  (t) => [index('run_changes_tenant_idx').on(t.tenant_id, t.run_id)],
);

/**
 * A crawl's SEO issues as a document, ordered by page and stored in parts of at most
 * SEO_REPORT_PART issues. The report is derived once, when the run is finalized, and read a page
 * of pages per check at a time (lib/crawl/views/seo-report.ts), so a run costs a few rows rather
 * than one per issue: a 5,000-page site missing descriptions and canonicals has 10,000 issues. Parts keep every statement small, so the
 * embedded database's memory does not grow with the size of the site.
 */
export const seoReports = pgTable(
  'seo_reports',
  {
    run_id: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    tenant_id: text('tenant_id').notNull(),
    issues: jsonb('issues').$type<StoredSeoIssue[]>().notNull(),
    /**
     * The pages of the part's first and last issue. Parts follow the pages in URL order (byte order:
     * collation "C", as crawl_urls.url), so one page's issues are in the one or two parts whose range
     * holds it, found without reading the others (url-details on a 1,000,000-page run read all 2,000
     * parts, 0.4 s). Null on parts written before migration 0035.
     */
    first_page_url: text('first_page_url'),
    last_page_url: text('last_page_url'),
    /**
     * The part's issues counted by check (`{check: issues}`; a check fails once per page, so also
     * its pages) and its distinct pages, so the report's counts and summary come from these small
     * columns and a check's pages are read from the parts that have it (migration 0036). A page
     * whose issues straddle two parts is counted in both: the reader subtracts each boundary where
     * one part's last page is the next one's first. Null on parts written before.
     */
    check_counts: jsonb('check_counts').$type<Record<string, number>>(),
    page_count: integer('page_count'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.run_id, t.part] }),
    index('seo_reports_tenant_idx').on(t.tenant_id, t.run_id),
  ],
);

/** Issues stored per `seo_reports` row. */
export const SEO_REPORT_PART = 2000;

export type Run = typeof runs.$inferSelect;
export type BrokenLink = typeof brokenLinks.$inferSelect;
