import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { runs } from './schema';

/**
 * The condition that picks a site's runs whose accessibility render pass is in progress
 * (`a11y_phase` seeding, rendering or finalizing; index runs_a11y_active_idx). Beside the table, like
 * `runningCrawlOf`, because the a11y and usage domains both read it (live state, scheduler, resume,
 * allowance). Ids or an outer query's columns.
 */
export const ACTIVE_PASS_PHASES = ['seeding', 'rendering', 'finalizing'] as const;

export const passInProgress: SQL = inArray(runs.a11y_phase, [...ACTIVE_PASS_PHASES]);

export function activePassOf(tenantId: string | AnyPgColumn, siteId: string | AnyPgColumn): SQL {
  return and(eq(runs.tenant_id, tenantId), eq(runs.site_id, siteId), passInProgress) as SQL;
}
