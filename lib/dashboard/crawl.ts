import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import { runs } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { InvalidError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { requireDashboard } from './session';

// The crawl's read views the report pages and downloads show.
export {
  getUrlDetail,
  listBrokenTargets,
  listCrawledUrls,
  listRedirects,
  listRuns,
} from '@/lib/crawl/service';
// The CSV downloads read every matching row, past the API's page size.
export { matchingBrokenTargets } from '@/lib/crawl/views/broken-targets';
export { MAX_PAGES_PAGE } from '@/lib/crawl/views/pages';

/**
 * What a report page shows: the data, or why there is none (no crawl yet, the app is off, the run's
 * URLs are no longer stored), or a query the service refused (a stale cursor). Anything else is a
 * failure for the dashboard's error boundary.
 */
export type ViewResult<T> =
  | { ok: true; data: T }
  | { ok: false; reason: 'missing' | 'invalid'; message: string };

export async function viewOf<T>(load: () => Promise<T>): Promise<ViewResult<T>> {
  try {
    return { ok: true, data: await load() };
  } catch (error) {
    if (error instanceof NotFoundError) return { ok: false, reason: 'missing', message: error.message };
    if (error instanceof InvalidError) return { ok: false, reason: 'invalid', message: error.message };
    throw error;
  }
}

/** A page's search parameters as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The query a report page asks its service for, read from the page's URL with the API's own query
 * schema, field by field: a value the schema refuses (a hand-edited `sort=size`) is dropped, so the
 * page still shows its default rather than an error.
 */
export function queryFromSearch<S extends z.ZodObject>(
  schema: S,
  searchParams: SearchParams,
): Partial<z.output<S>> {
  const query: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const raw = searchParams[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '') continue;
    const parsed = (field as z.ZodType).safeParse(value);
    if (parsed.success && parsed.data !== undefined) query[key] = parsed.data;
  }
  return query as Partial<z.output<S>>;
}

export interface CrawlTrendPoint {
  runId: string;
  startedAt: number;
  brokenTargets: number;
  pagesCrawled: number;
  /** Null when the run scanned no page for SEO (the app was off). */
  seoScore: number | null;
}

/**
 * The site's recent completed crawls, oldest first: the History tab's trend of broken targets,
 * pages crawled and SEO score. The run's stored counters are the one source, as in the run history.
 */
export async function crawlTrend(
  db: Db,
  principal: Principal,
  siteId: string,
  limit = 30,
): Promise<CrawlTrendPoint[]> {
  const site = await getVisibleSite(db, principal, siteId);
  const rows = await db
    .select({
      runId: runs.id,
      startedAt: runs.started_at,
      brokenTargets: runs.broken_count,
      pagesCrawled: runs.pages_crawled,
      seoScore: runs.seo_score,
    })
    .from(runs)
    .where(completedCrawlOf(principal.tenantId, site.id))
    .orderBy(desc(runs.started_at))
    .limit(limit);
  return rows.reverse();
}

/**
 * The `?run=` of a report page or download: a run id, or undefined for the latest crawl. A value
 * that is not a uuid names no run: it is passed on as the all-zero id, which the services answer
 * with their "run not found", instead of reaching the database as malformed input.
 */
export function runIdFromSearch(searchParams: SearchParams): string | undefined {
  const raw = searchParams.run;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return undefined;
  return isUuid(value) ? value.toLowerCase() : '00000000-0000-0000-0000-000000000000';
}

/** One run of a visible site, or null (unknown, another site's, a malformed id). */
export async function runOfSite(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string },
): Promise<RunResource | null> {
  if (!isUuid(runId)) return null;
  const site = await getVisibleSite(db, principal, siteId);
  const [run] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.tenant_id, principal.tenantId), eq(runs.site_id, site.id), eq(runs.id, runId)))
    .limit(1);
  return run ? runResource(run) : null;
}

/** A report view's data read for the signed-in person (`viewOf` around the service call). */
export async function dashboardView<T>(
  load: (db: Db, principal: Principal) => Promise<T>,
): Promise<ViewResult<T>> {
  const { db, principal } = await requireDashboard();
  return viewOf(() => load(db, principal));
}
