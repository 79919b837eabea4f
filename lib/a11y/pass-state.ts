/**
 * Which runs are accessibility scans and which passes are in progress: the one definition the
 * status endpoint, the live state, the report, the scheduler and the resume sweep share.
 *
 * A run scans accessibility when it is a standalone `a11y` run or a crawl that chains the render
 * pass (`chain_a11y`; crawl finalization clears it when the pass is not chained after all: the
 * crawl failed or the app was turned off). Its pass is in progress while `a11y_phase` is seeding,
 * rendering or finalizing.
 */
import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { runs } from '@/lib/db/schema';

export const ACTIVE_PASS_PHASES = ['seeding', 'rendering', 'finalizing'] as const;

export const scansA11y: SQL = or(eq(runs.kind, 'a11y'), eq(runs.chain_a11y, 1)) as SQL;

export const passInProgress: SQL = inArray(runs.a11y_phase, [...ACTIVE_PASS_PHASES]);

/** A site's runs whose render pass is in progress; ids or an outer query's columns. */
export function activePassOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return and(eq(runs.tenant_id, tenantId), eq(runs.site_id, siteId), passInProgress) as SQL;
}
