import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { ACTIVE_PASS_PHASES } from '@/lib/db/active-pass';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type Run, type RunSettings, runs, seoReports, usageLedger } from '@/lib/db/schema';
import { refreshStatisticsAfterWrite } from '@/lib/db/statistics';
import { pauseIfAllowanceUsed } from '@/lib/usage/allowance';
import { type CrawlTrace, traced } from '../engine/trace';
import { storeRunChanges } from '../views/history';
import { writeRunSeo } from './finalize-seo';
import { loadRun } from './run';
import { queueCrawlSummary } from './summary-notification';

/**
 * Finalization turns a worked frontier into the run's results: broken-link rows, SEO issues,
 * counters, the run's end state, its usage ledger row, the crawl summary notification and, at the
 * allowance, the app pause.
 *
 * Everything is recomputed from the frontier (never from the counters moved during the crawl), in
 * one transaction that only commits if the run was still running. Running it twice, or after a
 * crash half way, gives the same rows and one ledger entry.
 */

export interface FinalizeResult {
  run: Run;
  /** false when the run had already been finalized (a retried or duplicated finalize). */
  finalizedNow: boolean;
  /** The allowance was reached with overage off and the notification was queued by this call. */
  allowanceNotified: boolean;
}

export async function finalizeRun(
  db: Db,
  runId: string,
  now = Date.now(),
  /** Diagnosis only (the crawl benchmark's BENCH_TRACE): the transaction and its two largest parts. */
  trace?: CrawlTrace,
): Promise<FinalizeResult | null> {
  const run = await loadRun(db, runId);
  if (!run) return null;
  if (run.state !== 'running') return { run, finalizedNow: false, allowanceNotified: false };
  const settings = run.settings as RunSettings;
  await db
    .update(runs)
    .set({ phase: 'finalizing' })
    .where(and(eq(runs.id, runId), eq(runs.state, 'running')));

  // Anything the crawl left unworked (a run ended early) is recorded as not crawled.
  await db.execute(
    sql`update crawl_urls set state = 'done', verdict = 'skipped', detail = coalesce(detail, 'not crawled: the crawl ended first'), lease_expires_at = null
        where run_id = ${runId}::uuid and state <> 'done'`,
  );

  const [totals] = await queryRows<{
    rows: string | number;
    pages: string | number;
    checked: string | number;
  }>(
    db,
    sql`select count(*) as rows, count(*) filter (where is_page = 1) as pages,
               count(*) filter (where verdict is not null and verdict <> 'skipped') as checked
        from crawl_urls where run_id = ${runId}::uuid`,
  );
  const pagesCrawled = Number(totals?.pages ?? 0);
  const linksChecked = Number(totals?.checked ?? 0);
  // Every statement below reads the run's rows back: a large run's are described to the planner first.
  await traced(trace, 'finalize: statistics', () =>
    refreshStatisticsAfterWrite(db, 'crawl_urls', Number(totals?.rows ?? 0)),
  );
  const state = run.error === null ? 'completed' : 'failed';
  const period = billingPeriod(run.started_at);

  const started = performance.now();
  // The (broken target, linking page) rows written: whether broken_links is described afresh below.
  let brokenRows = 0;
  const finished = await db
    .transaction(async (tx) => {
      await tx.execute(sql`delete from broken_links where run_id = ${runId}::uuid`);
      // One row per (broken target, linking page): the pages' stored links joined to the targets, each
      // with its target's count of them (a page lists a target once, so the pairs are distinct).
      await tx.execute(
        sql`insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code, kind,
            redirect_chain, detail, created_at, link_text, link_selector, link_attrs, linking_pages)
          select p.run_id, ${run.tenant_id}, p.url, u.url, u.verdict, u.status_code, u.kind,
            u.redirect_chain, u.detail, ${now}::bigint, l.link ->> 1, l.link ->> 2, (l.link ->> 3)::jsonb,
            count(*) over (partition by u.url)
          from crawl_urls p
          cross join lateral jsonb_array_elements(p.links) as l(link)
          join crawl_urls u on u.run_id = p.run_id and u.url = l.link ->> 0
          where p.run_id = ${runId}::uuid and p.links is not null and u.verdict in ('broken', 'error')
          on conflict do nothing`,
      );
      // Inlinks: distinct crawled pages linking to each URL (a page lists a target once), stored so
      // the pages list sorts and pages by them. Recomputed in full, so a retried finalize agrees.
      // The rows are updated in URL order (the primary key's, collation "C"): each row's new version
      // gets an entry in the primary key, the five sort indexes and the linking-pages index, all of
      // which end in the URL, so in URL order each entry lands beside the previous one; in the
      // aggregate's hash order every entry went to a random leaf of indexes several times the size of
      // the shared buffers (EXPLAIN ANALYZE at 1,000,000 pages: 206 s, 146 s in URL order).
      const inlinks = performance.now();
      await tx.execute(
        sql`update crawl_urls u set inlinks = c.pages
          from (select (l.link ->> 0) collate "C" as url, count(*) as pages
                from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
                where p.run_id = ${runId}::uuid and p.links is not null
                group by 1 order by 1) c
          where u.run_id = ${runId}::uuid and u.url = c.url`,
      );
      trace?.add('finalize: inlinks', performance.now() - inlinks);
      await tx.execute(
        sql`update crawl_urls set inlinks = 0 where run_id = ${runId}::uuid and inlinks is null`,
      );
      const [broken] = await queryRows<Record<string, string | number>>(
        tx,
        sql`select count(*) as rows, count(distinct target_url) as targets,
                 count(distinct source_url) as sources,
                 count(distinct target_url) filter (where kind = 'internal') as internal,
                 count(distinct target_url) filter (where kind = 'external') as external
          from broken_links where run_id = ${runId}::uuid`,
      );
      brokenRows = Number(broken?.rows ?? 0);

      await tx.delete(seoReports).where(eq(seoReports.run_id, runId));
      const seo = settings.seoEnabled
        ? await traced(trace, 'finalize: seo', () => writeRunSeo(tx, run, settings, now))
        : null;
      // The reports' new and fixed issues and targets, differenced once here rather than on every read.
      await traced(trace, 'finalize: changes', () => storeRunChanges(tx, run, { seo: seo !== null }));

      const [site] = await queryRows<{ hostname: string; a11y_enabled: number; pass_busy: boolean }>(
        tx,
        sql`select s.hostname, s.a11y_enabled,
                 exists (select 1 from runs r
                          where r.tenant_id = s.tenant_id and r.site_id = s.id and r.id <> ${runId}::uuid
                            and r.a11y_phase in (${sql.join(
                              ACTIVE_PASS_PHASES.map((p) => sql`${p}`),
                              sql`, `,
                            )})) as pass_busy
          from sites s where s.id = ${run.site_id}::uuid`,
      );
      // The render pass follows a completed crawl that asked for it while the app is still on. A
      // chained crawl is completed here, so its broken-link results show while its pages render; the
      // pass moves on in a11y_phase (lib/a11y/runs/pass.ts). Not chained after all: no longer an a11y scan.
      // Nor while an earlier pass of the site still renders: two passes at once would each count the
      // month's rendered-pages allowance as their own. The earlier pass's results stand, and the next
      // scan on the site's accessibility clock renders the newer pages.
      const chainA11y =
        run.chain_a11y === 1 &&
        state === 'completed' &&
        Number(site?.a11y_enabled) === 1 &&
        site?.pass_busy !== true;
      const [updated] = await tx
        .update(runs)
        .set({
          chain_a11y: chainA11y ? 1 : 0,
          a11y_phase: chainA11y ? 'seeding' : null,
          a11y_pass: chainA11y ? { sourceRunId: runId } : null,
          state,
          phase: 'done',
          finished_at: now,
          heartbeat_at: now,
          pages_crawled: pagesCrawled,
          links_checked: linksChecked,
          broken_count: Number(broken?.targets ?? 0),
          pages_with_broken_count: Number(broken?.sources ?? 0),
          internal_broken: Number(broken?.internal ?? 0),
          external_broken: Number(broken?.external ?? 0),
          seo_score: seo?.score.score ?? null,
          seo_critical: seo?.score.critical ?? 0,
          seo_serious: seo?.score.serious ?? 0,
          seo_moderate: seo?.score.moderate ?? 0,
          seo_minor: seo?.score.minor ?? 0,
          seo_pages_scanned: seo?.pagesScanned ?? 0,
          seo_issue_count: seo?.score.issueCount ?? 0,
        })
        .where(and(eq(runs.id, runId), eq(runs.state, 'running')))
        .returning();
      if (!updated) {
        // Another finalize committed first: leave its results untouched.
        tx.rollback();
      }

      await tx
        .insert(usageLedger)
        .values({
          tenant_id: run.tenant_id,
          site_id: run.site_id,
          hostname: site?.hostname ?? settings.hostname,
          run_id: runId,
          run_kind: 'crawl',
          billing_period: period,
          pages_crawled: pagesCrawled,
          links_checked: linksChecked,
          created_at: now,
        })
        .onConflictDoNothing({ target: usageLedger.run_id });
      // A crawl that chains the render pass is summarized when the pass ends, with its accessibility results.
      if (!chainA11y) await queueCrawlSummary(tx, updated as Run, site?.hostname ?? settings.hostname, now);
      return updated as Run;
    })
    .catch((error: unknown) => {
      if (isRollback(error)) return null;
      throw error;
    });
  trace?.add('finalize: transaction', performance.now() - started);

  if (!finished) {
    const current = (await loadRun(db, runId)) as Run;
    return { run: current, finalizedNow: false, allowanceNotified: false };
  }

  // Again once committed, for the reports' reads: the inlinks just counted (every row was null when
  // described above, and a planner told so picked a 3 s plan for the first page of the pages list of a
  // 1,000,000-page run) and the broken links just written.
  await traced(trace, 'finalize: statistics', async () => {
    await refreshStatisticsAfterWrite(db, 'crawl_urls', Number(totals?.rows ?? 0));
    await refreshStatisticsAfterWrite(db, 'broken_links', brokenRows);
  });
  const allowanceNotified = await pauseIfAllowanceReached(db, finished, settings, period, now);
  if (state === 'completed') await dropOlderFrontiers(db, finished);
  return { run: finished, finalizedNow: true, allowanceNotified };
}

function isRollback(error: unknown): boolean {
  return error instanceof TransactionRollbackError;
}

/**
 * With overage off at the start (the run carried an allowance), a month that has now used the
 * allowance pauses crawling for the rest of it and queues the notification. Overage turned on
 * meanwhile wins (`pauseIfAllowanceUsed` reads the current setting).
 */
async function pauseIfAllowanceReached(
  db: Db,
  run: Run,
  settings: RunSettings,
  period: string,
  now: number,
): Promise<boolean> {
  if (settings.allowanceRemaining === null) return false;
  const site = { tenant_id: run.tenant_id, id: run.site_id, hostname: settings.hostname };
  return pauseIfAllowanceUsed(db, site, 'crawl', period, now);
}

/**
 * The latest completed crawl keeps its frontier (the accessibility pass renders its pages, the SEO
 * report counts them); older crawls of the site keep only their report rows.
 */
async function dropOlderFrontiers(db: Db, run: Run): Promise<void> {
  const older = sql`select id from runs where site_id = ${run.site_id}::uuid and kind = 'crawl'
                    and id <> ${run.id}::uuid and state <> 'running' and started_at <= ${run.started_at}::bigint`;
  await db.execute(sql`delete from crawl_urls where run_id in (${older})`);
}
