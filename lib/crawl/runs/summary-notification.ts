import type { Db } from '@/lib/db/client';
import type { Run, RunSettings } from '@/lib/db/schema';
import type { CrawlSummaryChanges, CrawlSummaryPayload } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { brokenChangesAgainst, previousCompletedRun, seoChangesAgainst } from '../views/history';

/** The accessibility figures of a run that a summary compares (the previous scan's, for a chained pass). */
export type A11yFigures = Pick<
  Run,
  'a11y_score' | 'a11y_critical' | 'a11y_serious' | 'a11y_moderate' | 'a11y_minor' | 'a11y_resolved'
>;

/**
 * The crawl summary (spec: Events, "a crawl finishes"), queued for `crawlReportRecipients` once per
 * crawl run, inside the transaction that finishes it, so a retried finalization neither loses nor
 * repeats it. A crawl that chains the accessibility render pass is summarized when the pass ends,
 * with its accessibility results (lib/a11y/runs/pass.ts, which passes the previous scan's figures as
 * `a11yPrevious`); any other crawl when its finalization commits.
 *
 * A summary that would say "nothing changed" is not sent (issue 24 item 11): it goes out when the
 * crawl failed, when it is the site's first completed crawl, or when something changed against the
 * previous completed crawl (`hasChanges`). Returns whether it was queued.
 */
export async function queueCrawlSummary(
  db: Db,
  run: Run,
  hostname: string,
  now: number,
  a11yPrevious?: A11yFigures | null,
): Promise<boolean> {
  const settings = (run.settings ?? null) as RunSettings | null;
  const a11yRan = run.a11y_pages_scanned > 0 || run.a11y_score !== null;
  const scanner = settings?.scannerEnabled !== false;
  const changes = run.state === 'failed' ? null : await changesSincePrevious(db, run, settings, a11yPrevious);
  if (changes && !hasChanges(changes)) return false;
  const payload: CrawlSummaryPayload = {
    runId: run.id,
    hostname,
    state: run.state === 'failed' ? 'failed' : 'completed',
    error: run.error,
    startedAt: run.started_at,
    finishedAt: run.finished_at ?? now,
    pagesCrawled: run.pages_crawled,
    linksChecked: run.links_checked,
    brokenCount: scanner ? run.broken_count : null,
    pagesWithBroken: scanner ? run.pages_with_broken_count : null,
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
    changes,
  };
  return enqueueNotification(db, {
    tenantId: run.tenant_id,
    siteId: run.site_id,
    kind: 'crawl-summary',
    dedupeKey: `crawl-summary:${run.id}`,
    payload,
    now,
  });
}

/**
 * Something worth a mail since the previous completed crawl: a broken link new or fixed, an SEO
 * issue (check, page) new or fixed, or an accessibility scan whose score or violations differ from
 * the previous scan's. The site's first completed crawl has nothing to compare with and always counts.
 */
export function hasChanges(changes: CrawlSummaryChanges): boolean {
  return (
    changes.previousRunId === null ||
    changes.brokenNew + changes.brokenFixed + changes.seoNew + changes.seoFixed > 0 ||
    changes.a11yChanged
  );
}

/**
 * New and fixed against the previous completed crawl: broken targets (as crawled: the run already
 * left excluded paths out), SEO issues while both crawls ran the SEO app, and the accessibility
 * scan against the previous one with results.
 */
async function changesSincePrevious(
  db: Db,
  run: Run,
  settings: RunSettings | null,
  a11yPrevious: A11yFigures | null | undefined,
): Promise<CrawlSummaryChanges> {
  const previous = await previousCompletedRun(db, run);
  const changes: CrawlSummaryChanges = {
    previousRunId: previous?.id ?? null,
    brokenNew: 0,
    brokenFixed: 0,
    seoNew: 0,
    seoFixed: 0,
    a11yChanged: false,
  };
  if (!previous) return changes;
  const previousSettings = (previous.settings ?? null) as RunSettings | null;
  if (settings?.scannerEnabled !== false && previousSettings?.scannerEnabled !== false) {
    const broken = await brokenChangesAgainst(db, run, previous);
    changes.brokenNew = broken.newCount;
    changes.brokenFixed = broken.fixedCount;
  }
  if (run.seo_score !== null && previous.seo_score !== null) {
    const seo = await seoChangesAgainst(db, run, previous);
    changes.seoNew = seo.newCount;
    changes.seoFixed = seo.fixedCount;
  }
  const a11yRan = run.a11y_pages_scanned > 0 || run.a11y_score !== null;
  changes.a11yChanged = a11yRan && a11yDiffers(run, a11yPrevious ?? null);
  return changes;
}

/**
 * A scan differs from the previous one when a violation was resolved or the score or a count by
 * impact moved (so a violation that appeared shows); a first scan is a change.
 */
function a11yDiffers(run: A11yFigures, previous: A11yFigures | null): boolean {
  if (!previous) return true;
  return (
    run.a11y_resolved > 0 ||
    run.a11y_score !== previous.a11y_score ||
    run.a11y_critical !== previous.a11y_critical ||
    run.a11y_serious !== previous.a11y_serious ||
    run.a11y_moderate !== previous.a11y_moderate ||
    run.a11y_minor !== previous.a11y_minor
  );
}
