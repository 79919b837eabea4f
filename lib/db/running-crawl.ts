import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { runs } from './schema';

function crawlRunsOf(
  tenantId: string | AnyPgColumn,
  siteId: string | AnyPgColumn,
  state: 'running' | 'completed',
): SQL {
  return and(
    eq(runs.tenant_id, tenantId),
    eq(runs.site_id, siteId),
    eq(runs.kind, 'crawl'),
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
  return crawlRunsOf(tenantId, siteId, 'running');
}

/**
 * A site's completed crawl runs (failed ones excluded): the crawl and a11y domains both look for
 * the latest one (a report's previous run, a standalone scan's page set, the a11y scheduler).
 */
export function completedCrawlOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return crawlRunsOf(tenantId, siteId, 'completed');
}
