import type { Db } from '@/lib/db/client';
import type { Run, RunSettings } from '@/lib/db/schema';
import type { CrawlSummaryPayload } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';

/**
 * The crawl summary (spec: Events, "a crawl finishes"), queued for `crawlReportRecipients` once per
 * crawl run, inside the transaction that finishes it, so a retried finalization neither loses nor
 * repeats it. A crawl that chains the accessibility render pass is summarized when the pass ends,
 * with its accessibility results (lib/a11y/pass.ts); any other crawl when its finalization commits.
 */
export async function queueCrawlSummary(db: Db, run: Run, hostname: string, now: number): Promise<boolean> {
  const settings = (run.settings ?? null) as RunSettings | null;
  const a11yRan = run.a11y_pages_scanned > 0 || run.a11y_score !== null;
  const payload: CrawlSummaryPayload = {
    runId: run.id,
    hostname,
    state: run.state === 'failed' ? 'failed' : 'completed',
    error: run.error,
    startedAt: run.started_at,
    finishedAt: run.finished_at ?? now,
    pagesCrawled: run.pages_crawled,
    linksChecked: run.links_checked,
    brokenCount: settings?.scannerEnabled === false ? null : run.broken_count,
    internalBroken: run.internal_broken,
    externalBroken: run.external_broken,
    seoScore: run.seo_score,
    seoIssueCount: run.seo_issue_count,
    a11y: a11yRan
      ? {
          score: run.a11y_score,
          critical: run.a11y_critical,
          serious: run.a11y_serious,
          moderate: run.a11y_moderate,
          minor: run.a11y_minor,
          pagesScanned: run.a11y_pages_scanned,
        }
      : null,
    limitsHit: run.limits_hit.map((hit) => hit.detail),
  };
  return enqueueNotification(db, {
    tenantId: run.tenant_id,
    siteId: run.site_id,
    kind: 'crawl-summary',
    dedupeKey: `crawl-summary:${run.id}`,
    payload: payload as unknown as Record<string, unknown>,
    now,
  });
}
