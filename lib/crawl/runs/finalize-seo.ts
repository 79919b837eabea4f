import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  type RunSettings,
  SEO_REPORT_PART,
  type StoredRedirectHop,
  type StoredSeoIssue,
  seoReports,
} from '@/lib/db/schema';
import {
  type DuplicateCandidate,
  DuplicateIndex,
  pageSeoIssues,
  type SeoPage,
  type TargetResolution,
} from '@/lib/seo/checks';
import { parseStoredSeoFacts } from '@/lib/seo/facts';
import { type SeoScore, SeoTally } from '@/lib/seo/score';
import { normalizeUrl } from '../engine/url';

/**
 * The SEO half of finalization: the run's issues derived from the facts stored with its pages,
 * written as report parts, and the score.
 *
 * A run's pages are read a page of rows at a time, in URL order along the primary key (byte order,
 * migration 0005, which is JavaScript's order for these ASCII URLs), and nothing is held across
 * pages of rows but the duplicate index and one report part. Memory stays flat however large the
 * site: holding every page's facts and every issue at once took tens of MB for 20,000 pages.
 */

/** Pages whose stored SEO facts are read per statement. */
export const SEO_FACTS_PAGE = 2000;
/** Canonical URLs looked up per statement. */
const CANONICAL_LOOKUP = 500;

export interface RunSeo {
  score: SeoScore;
  pagesScanned: number;
}

/**
 * Derives and stores the run's SEO report (the caller has deleted any earlier parts, in the same
 * transaction). Two passes over the pages: duplicate titles and descriptions need the whole site
 * before any page's issues can be told, so the first pass indexes them from three fields of the
 * facts; the second derives each page's issues, tallies the score and writes every full part.
 */
export async function writeRunSeo(
  tx: Db,
  run: { id: string; tenant_id: string },
  settings: RunSettings,
  now: number,
): Promise<RunSeo> {
  const duplicates = new DuplicateIndex();
  const keys = sql`seo_facts ->> 'title' as title, seo_facts ->> 'description' as description,
                   seo_facts ->> 'noindex' as noindex, seo_facts ->> 'canonical' as canonical`;
  for await (const rows of pagesOfFacts<DuplicateRow>(tx, run.id, keys)) {
    for (const row of rows) duplicates.add(duplicateCandidate(row));
  }

  const redirectOnly = await pagesReachedOnlyViaRedirects(tx, run.id);
  const tally = new SeoTally();
  const report = new ReportWriter(tx, run, now);
  let pagesScanned = 0;
  for await (const rows of pagesOfFacts<{ url: string; seo_facts: unknown }>(tx, run.id, sql`seo_facts`)) {
    const pages: SeoPage[] = [];
    for (const row of rows) {
      // A row that no longer matches the facts' shape counts as not scanned (it may still have
      // been indexed as a duplicate by the first pass, which reads only three fields).
      const facts = parseStoredSeoFacts(row.seo_facts);
      if (facts) pages.push({ url: row.url, facts, reachedOnlyViaRedirect: redirectOnly.has(row.url) });
    }
    const resolve = await canonicalResolver(tx, run.id, settings, pages);
    for (const page of pages) {
      const issues = pageSeoIssues(page, duplicates, resolve);
      tally.addPage(issues);
      await report.add(issues.map((i): StoredSeoIssue => [i.check, i.impact, i.pageUrl, i.detail]));
    }
    pagesScanned += pages.length;
  }
  await report.finish();
  return { score: tally.score(pagesScanned), pagesScanned };
}

interface DuplicateRow {
  url: string;
  title: string | null;
  description: string | null;
  noindex: string | null;
  canonical: string | null;
}

function duplicateCandidate(row: DuplicateRow): DuplicateCandidate {
  return {
    url: row.url,
    facts: {
      title: row.title,
      description: row.description,
      noindex: row.noindex === 'meta' || row.noindex === 'x-robots-tag' ? row.noindex : null,
      canonical: row.canonical,
    },
  };
}

/**
 * The run's pages that carry SEO facts, `columns` of them, a page of rows at a time in URL order.
 * The next page is asked for before this one is handed over: the database (Postgres's own process,
 * PGlite's own thread) reads it while the caller judges this one, instead of each waiting for the
 * other. A read the caller never takes (it stopped early, the transaction failed) is left to fail
 * unobserved.
 */
async function* pagesOfFacts<T extends { url: string }>(
  tx: Db,
  runId: string,
  columns: SQL,
): AsyncGenerator<T[]> {
  const read = (after: string) => {
    const rows = queryRows<T>(
      tx,
      sql`select url, ${columns} from crawl_urls
          where run_id = ${runId}::uuid and url > ${after} and is_page = 1 and seo_facts is not null
          order by url limit ${SEO_FACTS_PAGE}::int`,
    );
    rows.catch(() => {});
    return rows;
  };
  for (let next = read(''); ; ) {
    const rows = await next;
    const last = rows.length === SEO_FACTS_PAGE ? (rows.at(-1) as T).url : null;
    if (last !== null) next = read(last);
    if (rows.length > 0) yield rows;
    if (last === null) return;
  }
}

/** Stored issues, written as they come in parts of exactly SEO_REPORT_PART (the last may be short). */
class ReportWriter {
  private pending: StoredSeoIssue[] = [];
  private part = 0;

  constructor(
    private readonly tx: Db,
    private readonly run: { id: string; tenant_id: string },
    private readonly now: number,
  ) {}

  async add(issues: StoredSeoIssue[]): Promise<void> {
    this.pending.push(...issues);
    while (this.pending.length >= SEO_REPORT_PART) {
      await this.write(this.pending.slice(0, SEO_REPORT_PART));
      this.pending = this.pending.slice(SEO_REPORT_PART);
    }
  }

  async finish(): Promise<void> {
    if (this.pending.length > 0) await this.write(this.pending);
    this.pending = [];
  }

  private async write(issues: StoredSeoIssue[]): Promise<void> {
    // Issues come a page at a time and each check once per page: an issue per check is a page.
    const checkCounts: Record<string, number> = {};
    let pageCount = 0;
    let page: string | undefined;
    for (const [check, , pageUrl] of issues) {
      checkCounts[check] = (checkCounts[check] ?? 0) + 1;
      if (pageUrl !== page) pageCount++;
      page = pageUrl;
    }
    await this.tx.insert(seoReports).values({
      run_id: this.run.id,
      part: this.part++,
      tenant_id: this.run.tenant_id,
      issues,
      first_page_url: issues[0]?.[2] ?? null,
      last_page_url: issues.at(-1)?.[2] ?? null,
      check_counts: checkCounts,
      page_count: pageCount,
      created_at: this.now,
    });
  }
}

/**
 * Pages the crawl reached through a redirect (recorded under the redirect's final URL, found on the
 * redirecting URL) that no crawled page links to directly: every visitor and crawler pays a hop.
 * Only those candidates are looked up among the link targets, so a site without redirects pays
 * nothing here.
 */
async function pagesReachedOnlyViaRedirects(tx: Db, runId: string): Promise<Set<string>> {
  const candidates = await queryRows<{ url: string }>(
    tx,
    sql`select p.url from crawl_urls p
        join crawl_urls r on r.run_id = p.run_id and r.url = p.found_on
        where p.run_id = ${runId}::uuid and p.is_page = 1 and r.is_page = 0 and r.redirect_chain is not null`,
  );
  if (candidates.length === 0) return new Set();
  const urls = candidates.map((c) => c.url);
  // One pass over the stored links, hashed against the candidates (not one scan per candidate).
  const linked = await queryRows<{ url: string }>(
    tx,
    sql`select distinct l.link ->> 0 as url
        from crawl_urls s cross join lateral jsonb_array_elements(s.links) as l(link)
        where s.run_id = ${runId}::uuid and s.links is not null
          and (l.link ->> 0) in (select jsonb_array_elements_text(${JSON.stringify(urls)}::jsonb))`,
  );
  const direct = new Set(linked.map((r) => r.url));
  return new Set(urls.filter((url) => !direct.has(url)));
}

/** What the crawl learned about the canonical URLs these pages name (other than themselves). */
async function canonicalResolver(
  tx: Db,
  runId: string,
  settings: RunSettings,
  pages: readonly SeoPage[],
): Promise<(url: string) => TargetResolution> {
  const keyOf = (url: string) => normalizeUrl(url, undefined, settings.stripParams);
  const wanted = new Set<string>();
  for (const page of pages) {
    const key = page.facts.canonical ? keyOf(page.facts.canonical) : null;
    // A page naming itself is live: the crawler just fetched it.
    if (key && key !== page.url) wanted.add(key);
  }
  const known = new Map<string, TargetResolution>();
  const list = [...wanted];
  for (let i = 0; i < list.length; i += CANONICAL_LOOKUP) {
    const chunk = list.slice(i, i + CANONICAL_LOOKUP);
    const found = await queryRows<{
      url: string;
      verdict: string | null;
      status_code: number | null;
      redirect_chain: StoredRedirectHop[] | null;
    }>(
      tx,
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
  redirect_chain: StoredRedirectHop[] | null;
}): TargetResolution {
  if (row.verdict === 'broken' || row.verdict === 'error')
    return { state: 'broken', statusCode: row.status_code };
  if (row.verdict !== 'ok') return { state: 'unknown' };
  if (row.redirect_chain) {
    const last = row.redirect_chain.at(-1);
    return last ? { state: 'redirect', finalUrl: last.url, statusCode: row.status_code } : { state: 'ok' };
  }
  return { state: 'ok', statusCode: row.status_code };
}
