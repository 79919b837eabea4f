import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { runs } from '@/lib/db/schema';

/**
 * The condition that picks a site's running crawl run (a partial unique index keeps it to one).
 * Shared by the trigger, the live state and the allowance, so "running" means the same everywhere.
 * Ids or an outer query's columns (a subquery per site of a listing).
 */
export function runningCrawlOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return and(
    eq(runs.tenant_id, tenantId),
    eq(runs.site_id, siteId),
    eq(runs.kind, 'crawl'),
    eq(runs.state, 'running'),
  ) as SQL;
}
