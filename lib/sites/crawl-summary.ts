import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import { type Run, runs, sites } from '@/lib/db/schema';
import { visibleSitesCondition } from './access';

/** A completed crawl's headline figures, as the run recorded them when it finalized. */
export interface CrawlFigures {
  runId: string;
  startedAt: number;
  /** Distinct broken targets. */
  brokenCount: number;
  /** 0-100; null when the run extracted no SEO data (the SEO app was off). */
  seoScore: number | null;
}

/** Each listed site's crawls at a glance: the sites list's "last crawl" and its direction. */
export interface SiteCrawls {
  siteId: string;
  /** The latest crawl run of any origin (scheduled, manual, API) and any state; null: never crawled. */
  lastCrawl: { runId: string; state: Run['state']; startedAt: number; finishedAt: number | null } | null;
  /** The latest completed crawl; null when none completed yet. */
  latest: CrawlFigures | null;
  /** The completed crawl before `latest`, to compare with; null when there is none. */
  previous: CrawlFigures | null;
}

type Row = {
  site_id: string;
  last_id: string | null;
  last_state: Run['state'] | null;
  last_started: string | number | null;
  last_finished: string | number | null;
  c1_id: string | null;
  c1_started: string | number | null;
  c1_broken: number | null;
  c1_seo: number | null;
  c2_id: string | null;
  c2_started: string | number | null;
  c2_broken: number | null;
  c2_seo: number | null;
};

/** The newest crawl run of the outer row's site matching `condition`, skipping `offset` newer ones. */
const newestCrawl = (condition: SQL, offset: number, alias: string) =>
  sql`left join lateral (
        select ${runs.id} as id, ${runs.state} as state, ${runs.started_at} as started_at,
               ${runs.finished_at} as finished_at, ${runs.broken_count} as broken_count, ${runs.seo_score} as seo_score
        from ${runs} where ${condition}
        order by ${runs.started_at} desc, ${runs.id} desc limit 1 offset ${sql.raw(String(offset))}
      ) as ${sql.identifier(alias)} on true`;

const figures = (
  id: string | null,
  started: string | number | null,
  broken: number | null,
  seo: number | null,
) =>
  id === null
    ? null
    : { runId: id, startedAt: Number(started), brokenCount: Number(broken ?? 0), seoScore: seo };

/**
 * The crawls of every site the caller sees, in one statement: per site, three index lookups on
 * runs_site_idx (the newest crawl, and the two newest completed ones), whatever the history's length.
 */
export async function siteCrawls(db: Db, principal: Principal): Promise<SiteCrawls[]> {
  const anyCrawl = and(
    eq(runs.tenant_id, sites.tenant_id),
    eq(runs.site_id, sites.id),
    eq(runs.kind, 'crawl'),
  );
  const completed = completedCrawlOf(sites.tenant_id, sites.id);
  const visible = visibleSitesCondition(principal);
  const rows = await queryRows<Row>(
    db,
    sql`select ${sites.id} as site_id,
               last.id as last_id, last.state as last_state, last.started_at as last_started, last.finished_at as last_finished,
               c1.id as c1_id, c1.started_at as c1_started, c1.broken_count as c1_broken, c1.seo_score as c1_seo,
               c2.id as c2_id, c2.started_at as c2_started, c2.broken_count as c2_broken, c2.seo_score as c2_seo
        from ${sites}
        ${newestCrawl(anyCrawl as SQL, 0, 'last')}
        ${newestCrawl(completed, 0, 'c1')}
        ${newestCrawl(completed, 1, 'c2')}
        where ${and(eq(sites.tenant_id, principal.tenantId), visible)}
        order by ${sites.created_at}, ${sites.id}`,
  );
  return rows.map((r) => ({
    siteId: r.site_id,
    lastCrawl:
      r.last_id === null || r.last_state === null
        ? null
        : {
            runId: r.last_id,
            state: r.last_state,
            startedAt: Number(r.last_started),
            finishedAt: r.last_finished === null ? null : Number(r.last_finished),
          },
    latest: figures(r.c1_id, r.c1_started, r.c1_broken, r.c1_seo),
    previous: figures(r.c2_id, r.c2_started, r.c2_broken, r.c2_seo),
  }));
}
