import { and, inArray, lt, sql } from 'drizzle-orm';
import { periodBounds } from '@/lib/billing/period';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type Site, sites } from '@/lib/db/schema';
import type { AttachmentMaker } from '@/lib/notify/deliver';
import type { StakeholderReportPayload } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { effectiveSettings } from '@/lib/notify/receivers';
import { siteOfTenant } from '@/lib/sites/access';
import { lastCompleteMonth } from './monthly';
import { PDF_CONTENT_TYPE } from './pdf';
import { monthlyReportFile } from './service';

/**
 * The monthly mail: on the first of each UTC month every site whose notification settings name
 * `reportRecipients` (its override's, or the org defaults' where they apply) gets one
 * `stakeholder-report` notification for the month that just ended, keyed on (site, month), so a run
 * repeated later that day (the job runs hourly on the 1st, to catch a server that was down at
 * midnight) or after a crash queues nothing twice. The delivery job then mails each receiver once,
 * with the PDF rendered at send time (`reportAttachments`), under the delivery's idempotency key.
 */

export const reportDedupeKey = (siteId: string, period: string) => `stakeholder-report:${siteId}:${period}`;

/** Whether the settings that apply to the site name anyone to receive its report. */
async function hasReportRecipients(db: Db, site: Pick<Site, 'tenant_id' | 'id'>): Promise<boolean> {
  const { lists } = await effectiveSettings(db, { tenantId: site.tenant_id, siteId: site.id });
  return lists.some((settings) => settings.reportRecipients.length > 0);
}

/**
 * Queues last month's report for every site with report recipients that existed before the month
 * ended. Resolves to how many were queued by this call.
 */
export async function queueMonthlyReports(db: Db, now: number = Date.now()): Promise<number> {
  const period = lastCompleteMonth(now);
  const { end } = periodBounds(period);
  // Only organizations whose defaults or some override list report recipients can have any.
  const tenants = await queryRows<{ tenant_id: string }>(
    db,
    sql`select distinct tenant_id from notification_settings
        where jsonb_array_length(coalesce(settings -> 'reportRecipients', '[]'::jsonb)) > 0`,
  );
  if (tenants.length === 0) return 0;
  const candidates = await db
    .select({ id: sites.id, tenant_id: sites.tenant_id, hostname: sites.hostname })
    .from(sites)
    .where(
      and(
        inArray(
          sites.tenant_id,
          tenants.map((t) => t.tenant_id),
        ),
        lt(sites.created_at, end),
      ),
    );
  let queued = 0;
  for (const site of candidates) {
    if (!(await hasReportRecipients(db, site))) continue;
    const payload: StakeholderReportPayload = { hostname: site.hostname, period };
    const added = await enqueueNotification(db, {
      tenantId: site.tenant_id,
      siteId: site.id,
      kind: 'stakeholder-report',
      payload: { ...payload },
      dedupeKey: reportDedupeKey(site.id, period),
      now,
    });
    if (added) queued++;
  }
  return queued;
}

/**
 * The delivery job's attachment maker (composed in jobs/functions/notify.ts): a `stakeholder-report`
 * event's mails carry its month's PDF, rendered when the delivery is sent (the same figures for
 * every receiver and attempt: the month is over, so after the first it is the stored print); none
 * when the site is gone. Every other event carries nothing.
 */
export const reportAttachments: AttachmentMaker = async (db, event) => {
  const payload = event.payload as Partial<StakeholderReportPayload>;
  if (event.kind !== 'stakeholder-report' || !event.site_id || typeof payload.period !== 'string') return [];
  try {
    const site = await siteOfTenant(db, { tenantId: event.tenant_id, siteId: event.site_id });
    if (!site) return [];
    const { filename, content } = await monthlyReportFile(db, event.tenant_id, site, payload.period);
    return [{ filename, content: Buffer.from(content), contentType: PDF_CONTENT_TYPE }];
  } catch (error) {
    throw new Error(
      `the monthly report could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
};
