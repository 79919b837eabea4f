import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Run, runs } from './schema';

/** A site's runs of one kind in one state; the named conditions below are the ones domains share. */
export function siteRunsOf(
  tenantId: string | AnyPgColumn,
  siteId: string | AnyPgColumn,
  kind: Run['kind'],
  state: Run['state'],
): SQL {
  return and(
    eq(runs.tenant_id, tenantId),
    eq(runs.site_id, siteId),
    eq(runs.kind, kind),
    eq(runs.state, state),
  ) as SQL;
}

/**
 * The condition that picks a site's running crawl run (the partial unique index
 * runs_one_running_crawl_idx keeps it to one). It lives with the table, below the crawl and usage
 * domains that both read it (trigger, live state, allowance), so "running" means the same
 * everywhere. Ids or an outer query's columns (a subquery per site of a listing).
 */
export function runningCrawlOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return siteRunsOf(tenantId, siteId, 'crawl', 'running');
}

/**
 * A site's completed crawl runs (failed ones excluded): the crawl and a11y domains both look for
 * the latest one (a report's previous run, a standalone scan's page set, the a11y scheduler).
 */
export function completedCrawlOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return siteRunsOf(tenantId, siteId, 'crawl', 'completed');
}
