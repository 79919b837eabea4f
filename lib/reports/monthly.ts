import { and, asc, gte, lt } from 'drizzle-orm';
import { a11yRunOutcome, latestA11yRun } from '@/lib/a11y/report';
import type { A11yVerdict } from '@/lib/a11y/verdict';
import { billingPeriod, periodBounds } from '@/lib/billing/period';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import { runs, type Site } from '@/lib/db/schema';
import { organizationName } from '@/lib/orgs/name';
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
  } | null;
}

export interface MonitorMonth {
  id: string;
  label: string;
  url: string;
  /** Incident-based, over the part of the month the monitor existed; null when it did not. */
  uptimePct: number | null;
  incidents: { downAt: number; recoveredAt: number | null; cause: string | null }[];
  /** Downtime inside the month, ms. */
  downtimeMs: number;
}

export interface MonthlyReport {
  organizationName: string;
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

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The last month that has ended, `YYYY-MM`: what the monthly mail and the download default to. */
export function lastCompleteMonth(now: number = Date.now()): string {
  return billingPeriod(periodBounds(billingPeriod(now)).start - 1);
}

/** The `count` months that have ended before `now`'s, newest first (the download control's choices). */
export function recentMonths(count: number, now: number = Date.now()): string[] {
  const months: string[] = [];
  let at = periodBounds(billingPeriod(now)).start;
  for (let i = 0; i < count; i++) {
    const month = billingPeriod(at - 1);
    months.push(month);
    at = periodBounds(month).start;
  }
  return months;
}

/**
 * The month whose report will be a site's first, `YYYY-MM`, while that month is still running (the
 * site was registered in it); null once a month of the site's has ended. The download control still
 * offers the ended months (their reports are empty) and says this plainly, rather than leaving its
 * default month before the site existed to speak for itself.
 */
export function firstReportPending(registeredAt: number, now: number = Date.now()): string | null {
  const first = billingPeriod(registeredAt);
  return first >= billingPeriod(now) ? first : null;
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

function brokenLinksOf(crawls: (typeof runs.$inferSelect)[]): BrokenLinksSection {
  const trend = crawls.map((r) => ({ runId: r.id, startedAt: r.started_at, brokenCount: r.broken_count }));
  const last = crawls.at(-1);
  const first = crawls[0];
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
  const outcome = await a11yRunOutcome(db, site, run);
  return {
    latest: {
      finishedAt: run.finished_at,
      score: outcome.score,
      verdict: outcome.verdict,
      ...outcome.impacts,
      pagesScanned: outcome.pagesScanned,
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
        label: monitor.name ?? monitor.url,
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
  return {
    organizationName: await organizationName(db, tenantId),
    site: { id: site.id, hostname: site.hostname, rootUrl: site.root_url },
    period,
    periodLabel: monthLabel(period),
    from: bounds.start,
    to,
    partial: to < bounds.end,
    generatedAt: now,
    brokenLinks: site.scanner_enabled === 1 ? brokenLinksOf(crawls) : null,
    seo: site.seo_enabled === 1 ? seoOf(crawls) : null,
    a11y: site.a11y_enabled === 1 ? await a11yOf(db, site, bounds.start, to) : null,
    uptime: site.uptime_enabled === 1 ? { monitors: await uptimeOf(db, site, bounds.start, to) } : null,
  };
}
