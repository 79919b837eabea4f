import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  type Run,
  type RunSettings,
  runs,
  SEO_REPORT_PART,
  type StoredSeoIssue,
  seoReports,
  usageLedger,
} from '@/lib/db/schema';
import type { SeoPage, TargetResolution } from '@/lib/seo/checks';
import { deriveSeoIssues } from '@/lib/seo/checks';
import { parseStoredSeoFacts } from '@/lib/seo/facts';
import { scoreSeo } from '@/lib/seo/score';
import { pagesCrawledInPeriod, pauseAtAllowance } from '@/lib/usage/allowance';
import { loadRun } from './run';
import { normalizeUrl } from './url';

/**
 * Finalization turns a worked frontier into the run's results: broken-link rows, SEO issues,
 * counters, the run's end state, its usage ledger row and, at the allowance, the app pause.
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

const SEO_CHUNK = 500;
/** Pages whose stored SEO facts are read per statement while finalizing. */
export const SEO_FACTS_PAGE = 2000;

export async function finalizeRun(db: Db, runId: string, now = Date.now()): Promise<FinalizeResult | null> {
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

  const [totals] = await queryRows<{ pages: string | number; checked: string | number }>(
    db,
    sql`select count(*) filter (where is_page = 1) as pages,
               count(*) filter (where verdict is not null and verdict <> 'skipped') as checked
        from crawl_urls where run_id = ${runId}::uuid`,
  );
  const pagesCrawled = Number(totals?.pages ?? 0);
  const linksChecked = Number(totals?.checked ?? 0);
  const seo = settings.seoEnabled ? await deriveRunSeo(db, runId, settings) : null;
  const state = run.error === null ? 'completed' : 'failed';
  const period = billingPeriod(run.started_at);

  const finished = await db
    .transaction(async (txn) => {
      const tx = txn as unknown as Db;
      await tx.execute(sql`delete from broken_links where run_id = ${runId}::uuid`);
      // One row per (broken target, linking page): the pages' stored links joined to the targets.
      await tx.execute(
        sql`insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code, kind,
            redirect_chain, detail, created_at, link_text, link_selector, link_attrs)
          select p.run_id, ${run.tenant_id}, p.url, u.url, u.verdict, u.status_code, u.kind,
            u.redirect_chain, u.detail, ${now}::bigint, l.link ->> 1, l.link ->> 2, l.link ->> 3
          from crawl_urls p
          cross join lateral jsonb_array_elements(p.links) as l(link)
          join crawl_urls u on u.run_id = p.run_id and u.url = l.link ->> 0
          where p.run_id = ${runId}::uuid and p.links is not null and u.verdict in ('broken', 'error')
          on conflict do nothing`,
      );
      const [broken] = await queryRows<Record<string, string | number>>(
        tx,
        sql`select count(distinct target_url) as targets,
                 count(distinct source_url) as sources,
                 count(distinct target_url) filter (where kind = 'internal') as internal,
                 count(distinct target_url) filter (where kind = 'external') as external
          from broken_links where run_id = ${runId}::uuid`,
      );

      await tx.delete(seoReports).where(eq(seoReports.run_id, runId));
      if (seo) {
        const issues = storedIssues(seo.issues);
        for (let part = 0; part * SEO_REPORT_PART < issues.length; part++) {
          await tx.insert(seoReports).values({
            run_id: runId,
            part,
            tenant_id: run.tenant_id,
            issues: issues.slice(part * SEO_REPORT_PART, (part + 1) * SEO_REPORT_PART),
            created_at: now,
          });
        }
      }

      const [updated] = await tx
        .update(runs)
        .set({
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
        txn.rollback();
      }

      const [site] = await queryRows<{ hostname: string }>(
        tx,
        sql`select hostname from sites where id = ${run.site_id}::uuid`,
      );
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
      return updated as Run;
    })
    .catch((error: unknown) => {
      if (isRollback(error)) return null;
      throw error;
    });

  if (!finished) {
    const current = (await loadRun(db, runId)) as Run;
    return { run: current, finalizedNow: false, allowanceNotified: false };
  }

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
 * meanwhile wins: `pauseAtAllowance` checks the current setting.
 */
async function pauseIfAllowanceReached(
  db: Db,
  run: Run,
  settings: RunSettings,
  period: string,
  now: number,
): Promise<boolean> {
  if (settings.allowanceRemaining === null) return false;
  const allowance = config().ALLOWANCE_PAGES_CRAWLED;
  const used = await pagesCrawledInPeriod(db, run.tenant_id, run.site_id, period);
  if (used < allowance) return false;
  return pauseAtAllowance(db, {
    tenantId: run.tenant_id,
    siteId: run.site_id,
    hostname: settings.hostname,
    app: 'crawl',
    period,
    allowance,
    used,
    now,
  });
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

/** The issues as stored: tuples, ordered by page as the report lists them. */
function storedIssues(issues: RunSeo['issues']): StoredSeoIssue[] {
  return issues
    .map((issue): StoredSeoIssue => [issue.check, issue.impact, issue.pageUrl, issue.detail])
    .sort((a, b) => (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
}

interface RunSeo {
  issues: ReturnType<typeof deriveSeoIssues>;
  score: ReturnType<typeof scoreSeo>;
  pagesScanned: number;
}

/** SEO issues from the facts stored per page; canonicals are judged by what the crawl learned. */
async function deriveRunSeo(db: Db, runId: string, settings: RunSettings): Promise<RunSeo> {
  const redirectOnly = await pagesReachedOnlyViaRedirects(db, runId);
  const pages: SeoPage[] = [];
  // Read in pages of rows, in URL order along the primary key: the stored facts of a large site are
  // tens of MB of JSON, and each page of rows is reduced to its parsed form before the next is read.
  for (let after = ''; ; ) {
    const stored = await queryRows<{ url: string; seo_facts: unknown }>(
      db,
      sql`select url, seo_facts from crawl_urls
          where run_id = ${runId}::uuid and url > ${after} and is_page = 1 and seo_facts is not null
          order by url limit ${SEO_FACTS_PAGE}::int`,
    );
    for (const row of stored) {
      const facts = parseStoredSeoFacts(
        typeof row.seo_facts === 'string' ? JSON.parse(row.seo_facts) : row.seo_facts,
      );
      if (facts) pages.push({ url: row.url, facts, reachedOnlyViaRedirect: redirectOnly.has(row.url) });
    }
    if (stored.length < SEO_FACTS_PAGE) break;
    after = (stored.at(-1) as { url: string }).url;
  }
  const resolveTarget = await canonicalResolver(db, runId, settings, pages);
  const issues = deriveSeoIssues(pages, resolveTarget);
  return { issues, score: scoreSeo(issues, pages.length), pagesScanned: pages.length };
}

/**
 * Pages the crawl reached through a redirect (recorded under the redirect's final URL, found on the
 * redirecting URL) that no crawled page links to directly: every visitor and crawler pays a hop.
 * Only those candidates are looked up among the link targets, so a site without redirects pays
 * nothing here.
 */
async function pagesReachedOnlyViaRedirects(db: Db, runId: string): Promise<Set<string>> {
  const candidates = await queryRows<{ url: string }>(
    db,
    sql`select p.url from crawl_urls p
        join crawl_urls r on r.run_id = p.run_id and r.url = p.found_on
        where p.run_id = ${runId}::uuid and p.is_page = 1 and r.is_page = 0 and r.redirect_chain is not null`,
  );
  if (candidates.length === 0) return new Set();
  const urls = candidates.map((c) => c.url);
  // One pass over the stored links, hashed against the candidates (not one scan per candidate).
  const linked = await queryRows<{ url: string }>(
    db,
    sql`select distinct l.link ->> 0 as url
        from crawl_urls s cross join lateral jsonb_array_elements(s.links) as l(link)
        where s.run_id = ${runId}::uuid and s.links is not null
          and (l.link ->> 0) in (select jsonb_array_elements_text(${JSON.stringify(urls)}::jsonb))`,
  );
  const direct = new Set(linked.map((r) => r.url));
  return new Set(urls.filter((url) => !direct.has(url)));
}

async function canonicalResolver(
  db: Db,
  runId: string,
  settings: RunSettings,
  pages: readonly SeoPage[],
): Promise<(url: string) => TargetResolution> {
  const keyOf = (url: string) => normalizeUrl(url, undefined, settings.stripParams);
  const wanted = new Set<string>();
  for (const page of pages) {
    const key = page.facts.canonical ? keyOf(page.facts.canonical) : null;
    if (key) wanted.add(key);
  }
  const known = new Map<string, TargetResolution>();
  const list = [...wanted];
  for (let i = 0; i < list.length; i += SEO_CHUNK) {
    const chunk = list.slice(i, i + SEO_CHUNK);
    const found = await queryRows<{
      url: string;
      verdict: string | null;
      status_code: number | null;
      redirect_chain: string | null;
    }>(
      db,
      sql`select url, verdict, status_code, redirect_chain from crawl_urls
          where run_id = ${runId}::uuid and url in (${sql.join(
            chunk.map((u) => sql`${u}`),
            sql`, `,
          )})`,
    );
    for (const row of found) known.set(row.url, resolutionOf(row));
  }
  return (url) => {
    const key = keyOf(url);
    return (key && known.get(key)) || { state: 'unknown' };
  };
}

function resolutionOf(row: {
  verdict: string | null;
  status_code: number | null;
  redirect_chain: string | null;
}): TargetResolution {
  if (row.verdict === 'broken' || row.verdict === 'error')
    return { state: 'broken', statusCode: row.status_code };
  if (row.verdict !== 'ok') return { state: 'unknown' };
  if (row.redirect_chain) {
    const chain = JSON.parse(row.redirect_chain) as { url: string }[];
    const last = chain[chain.length - 1];
    return last ? { state: 'redirect', finalUrl: last.url, statusCode: row.status_code } : { state: 'ok' };
  }
  return { state: 'ok', statusCode: row.status_code };
}
