import { and, asc, desc, gte, lt } from 'drizzle-orm';
import { latestA11yRun } from '@/lib/a11y/report/evaluate';
import { type A11yRunDigest, a11yRunDigest, a11yRunOutcome } from '@/lib/a11y/report/run-figures';
import type { A11yVerdict } from '@/lib/a11y/report/verdict';
import { billingPeriod, periodBounds } from '@/lib/billing/period';
import { type BrokenTarget, brokenTargetDigest } from '@/lib/crawl/views/broken-targets';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import { type Run, runs, type Site } from '@/lib/db/schema';
import { mailOrganizationName } from '@/lib/orgs/name';
import { organizationBrand } from '@/lib/orgs/organization';
import { uptimeOverRange } from '@/lib/uptime/metrics';
import { monitorsOfSite } from '@/lib/uptime/monitors';

/**
 * The stakeholder report of one site for one UTC month (issue 15 item 6): what a site owner forwards
 * to people who never open the dashboard. Figures come from the month's runs and incidents as the
 * domains compute them (the crawl's run counters, the accessibility report's evaluation of a run, the
 * uptime metrics' incident-based uptime); a section is null when its app is off for the site, and
 * left out of the report.
 */

export interface CrawlPoint {
  runId: string;
  startedAt: number;
  brokenCount: number;
}

export interface BrokenLinksSection {
  /** The month's completed crawls, oldest first: the trend. */
  trend: CrawlPoint[];
  /** The month's last completed crawl; null when none completed in the month. */
  latest: {
    finishedAt: number;
    pagesCrawled: number;
    linksChecked: number;
    brokenCount: number;
    internalBroken: number;
    externalBroken: number;
    pagesWithBroken: number;
  } | null;
  /** Last crawl's broken targets minus the first's; null with fewer than two crawls. */
  change: number | null;
  /** The last crawl's most linked broken targets (REPORT_TOP_TARGETS), with their first linking pages. */
  top: BrokenTarget[];
  /**
   * Broken targets of the last crawl that the last crawl before the month did not report (`new`), and
   * the other way round (`fixed`); null when no crawl completed before the month.
   */
  changes: {
    since: number;
    /** The first MAX_LISTED_CHANGES of each side, and how many there are in all. */
    newTargets: string[];
    fixedTargets: string[];
    newCount: number;
    fixedCount: number;
  } | null;
}

export interface SeoSection {
  /** From the month's last completed crawl that scored SEO; null when none did. */
  latest: {
    finishedAt: number;
    score: number;
    critical: number;
    serious: number;
    moderate: number;
    minor: number;
    issueCount: number;
    pagesScanned: number;
  } | null;
}

export interface A11ySection {
  /** The month's last run whose render pass stored results; null when no scan finished in it. */
  latest: {
    finishedAt: number | null;
    score: number | null;
    verdict: A11yVerdict;
    critical: number;
    serious: number;
    moderate: number;
    minor: number;
    pagesScanned: number;
    /** Rules failing in that run, on the most pages first (REPORT_TOP_RULES), each with its pages. */
    rules: A11yRunDigest['rules'];
    /** Against the last scan before the month; null without one. */
    changes: (NonNullable<A11yRunDigest['changes']> & { since: number }) | null;
  } | null;
}

export interface MonitorMonth {
  id: string;
  label: string;
  /** null for a heartbeat monitor. */
  url: string | null;
  /** Incident-based, over the part of the month the monitor existed; null when it did not. */
  uptimePct: number | null;
  incidents: { downAt: number; recoveredAt: number | null; cause: string | null }[];
  /** Downtime inside the month, ms. */
  downtimeMs: number;
}

export interface MonthlyReport {
  /** As mails show it: one line, at most 60 characters (lib/orgs/name.ts). */
  organizationName: string;
  /** The organization's logo as a `data:` URL; null without one. */
  organizationLogo: string | null;
  site: { id: string; hostname: string; rootUrl: string };
  /** `YYYY-MM`. */
  period: string;
  /** "October 2026". */
  periodLabel: string;
  /** The month's first millisecond, and the end of what the report covers (the month's end, or now). */
  from: number;
  to: number;
  /** Whether the month is still running: figures are month to date. */
  partial: boolean;
  generatedAt: number;
  brokenLinks: BrokenLinksSection | null;
  seo: SeoSection | null;
  a11y: A11ySection | null;
  uptime: { monitors: MonitorMonth[] } | null;
}

/** Broken targets the report lists, and linking pages listed with each (the dashboard has them all). */
export const REPORT_TOP_TARGETS = 10;
export const REPORT_SOURCES_PER_TARGET = 3;
/** Failing accessibility rules the report lists, and pages listed with each. */
export const REPORT_TOP_RULES = 10;
export const REPORT_PAGES_PER_RULE = 3;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The last month that has ended, `YYYY-MM`: what the monthly mail and the download default to. */
export function lastCompleteMonth(now: number = Date.now()): string {
  return billingPeriod(periodBounds(billingPeriod(now)).start - 1);
}

/** A month the report can cover, as the download control offers it. */
export interface ReportMonthChoice {
  /** `YYYY-MM`. */
  value: string;
  /** "November 2026 (month to date)" for the running month, else "October 2026". */
  label: string;
  /** The running month: its figures run to now. */
  partial: boolean;
}

/**
 * The months a site's report can cover, newest first: the running month (month to date), then up to
 * `count` ended months, none before the month the site was registered in (a month before the site
 * existed has nothing to report). A site registered this month is offered the running month alone.
 */
export function reportMonthChoices(
  registeredAt: number,
  count = 12,
  now: number = Date.now(),
): ReportMonthChoice[] {
  const first = billingPeriod(registeredAt);
  const current = billingPeriod(now);
  const choices: ReportMonthChoice[] = [
    { value: current, label: `${monthLabel(current)} (month to date)`, partial: true },
  ];
  let at = periodBounds(current).start;
  for (let i = 0; i < count; i++) {
    const month = billingPeriod(at - 1);
    if (month < first) break;
    choices.push({ value: month, label: monthLabel(month), partial: false });
    at = periodBounds(month).start;
  }
  return choices;
}

/**
 * The month the control selects first: the last ended month (what the monthly mail sends), or the
 * running month while the site has no ended month yet.
 */
export function defaultReportMonth(choices: readonly ReportMonthChoice[]): string | undefined {
  return (choices.find((c) => !c.partial) ?? choices[0])?.value;
}

/**
 * A requested month: `YYYY-MM` up to the current month (which reads as month to date). Null for
 * anything else; undefined asks for the last complete month.
 */
export function reportMonth(value: string | undefined, now: number = Date.now()): string | null {
  if (value === undefined) return lastCompleteMonth(now);
  if (!MONTH.test(value) || value > billingPeriod(now)) return null;
  return value;
}

/** "October 2026". */
export function monthLabel(period: string): string {
  return new Date(periodBounds(period).start).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

async function brokenLinksOf(
  db: Db,
  site: Site,
  crawls: (typeof runs.$inferSelect)[],
  before: Run | undefined,
): Promise<BrokenLinksSection> {
  const trend = crawls.map((r) => ({ runId: r.id, startedAt: r.started_at, brokenCount: r.broken_count }));
  const last = crawls.at(-1);
  const first = crawls[0];
  const digest = last
    ? await brokenTargetDigest(db, site, last, before, {
        limit: REPORT_TOP_TARGETS,
        sources: REPORT_SOURCES_PER_TARGET,
      })
    : null;
  return {
    trend,
    latest: last
      ? {
          finishedAt: last.finished_at ?? last.started_at,
          pagesCrawled: last.pages_crawled,
          linksChecked: last.links_checked,
          brokenCount: last.broken_count,
          internalBroken: last.internal_broken,
          externalBroken: last.external_broken,
          pagesWithBroken: last.pages_with_broken_count,
        }
      : null,
    change: first && last && crawls.length > 1 ? last.broken_count - first.broken_count : null,
    top: digest?.top ?? [],
    changes:
      digest && before
        ? {
            since: before.started_at,
            newTargets: digest.changes.newTargets,
            fixedTargets: digest.changes.fixedTargets,
            newCount: digest.changes.newTargetCount,
            fixedCount: digest.changes.fixedTargetCount,
          }
        : null,
  };
}

function seoOf(crawls: (typeof runs.$inferSelect)[]): SeoSection {
  const last = crawls.findLast((r) => r.seo_score !== null);
  return {
    latest:
      last && last.seo_score !== null
        ? {
            finishedAt: last.finished_at ?? last.started_at,
            score: last.seo_score,
            critical: last.seo_critical,
            serious: last.seo_serious,
            moderate: last.seo_moderate,
            minor: last.seo_minor,
            issueCount: last.seo_issue_count,
            pagesScanned: last.seo_pages_scanned,
          }
        : null,
  };
}

async function a11yOf(db: Db, site: Site, from: number, to: number): Promise<A11ySection> {
  const run = await latestA11yRun(db, site, { withResults: true, startedWithin: { from, to } });
  if (!run) return { latest: null };
  const since = await latestA11yRun(db, site, { withResults: true, startedWithin: { from: 0, to: from } });
  const [outcome, digest] = await Promise.all([
    a11yRunOutcome(db, site, run),
    a11yRunDigest(db, site, run, since),
  ]);
  return {
    latest: {
      finishedAt: run.finished_at,
      score: outcome.score,
      verdict: outcome.verdict,
      ...outcome.impacts,
      pagesScanned: outcome.pagesScanned,
      rules: digest.rules.slice(0, REPORT_TOP_RULES),
      changes: digest.changes && since ? { ...digest.changes, since: since.started_at } : null,
    },
  };
}

async function uptimeOf(db: Db, site: Site, from: number, to: number): Promise<MonitorMonth[]> {
  const monitors = (await monitorsOfSite(db, site)).filter((m) => m.created_at < to);
  return Promise.all(
    monitors.map(async (monitor) => {
      const range = await uptimeOverRange(db, monitor, from, to);
      const incidents = range.events.map((e) => ({
        downAt: e.down_at,
        recoveredAt: e.recovered_at,
        cause: e.cause,
      }));
      const downtimeMs = incidents.reduce(
        (sum, i) => sum + Math.max(0, Math.min(i.recoveredAt ?? to, to) - Math.max(i.downAt, from)),
        0,
      );
      return {
        id: monitor.id,
        label: monitor.name ?? monitor.url ?? 'Heartbeat monitor',
        url: monitor.url,
        uptimePct: range.uptimePct,
        incidents,
        downtimeMs,
      };
    }),
  );
}

/**
 * Assembles the report of `site` (already known to belong to `tenantId`: a visible site of a caller,
 * or a site the monthly job read by tenant) for `period`.
 */
export async function monthlyReport(
  db: Db,
  tenantId: string,
  site: Site,
  period: string,
  now: number = Date.now(),
): Promise<MonthlyReport> {
  const bounds = periodBounds(period);
  const to = Math.min(bounds.end, now);
  const crawlsOn = site.scanner_enabled === 1 || site.seo_enabled === 1;
  const crawls = crawlsOn
    ? await db
        .select()
        .from(runs)
        .where(
          and(
            completedCrawlOf(tenantId, site.id),
            gte(runs.started_at, bounds.start),
            lt(runs.started_at, to),
          ),
        )
        .orderBy(asc(runs.started_at), asc(runs.id))
    : [];
  // The state the month started from: what its changes (new and fixed) are counted against.
  const [crawlBefore] =
    site.scanner_enabled === 1
      ? await db
          .select()
          .from(runs)
          .where(and(completedCrawlOf(tenantId, site.id), lt(runs.started_at, bounds.start)))
          .orderBy(desc(runs.started_at))
          .limit(1)
      : [];
  const brand = await organizationBrand(db, tenantId);
  return {
    organizationName: mailOrganizationName(brand.name),
    organizationLogo: brand.logo,
    site: { id: site.id, hostname: site.hostname, rootUrl: site.root_url },
    period,
    periodLabel: monthLabel(period),
    from: bounds.start,
    to,
    partial: to < bounds.end,
    generatedAt: now,
    brokenLinks: site.scanner_enabled === 1 ? await brokenLinksOf(db, site, crawls, crawlBefore) : null,
    seo: site.seo_enabled === 1 ? seoOf(crawls) : null,
    a11y: site.a11y_enabled === 1 ? await a11yOf(db, site, bounds.start, to) : null,
    uptime: site.uptime_enabled === 1 ? { monitors: await uptimeOf(db, site, bounds.start, to) } : null,
  };
}
