import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The crawl page's live panel and its run history read the same counters (issue 24 item 5): the
 * panel showed "0 of 1 found so far" above the history row of the same run (8 pages, 12 links, 2
 * broken). GET /v1/sites/{id}/status read the live state and the latest run in parallel, on
 * separate connections, so a batch or the run's end committing between them gave an answer whose
 * live counters were from before it and whose latest run from after it. Here every status read
 * races a run's last batch and its end; each answer must be one moment's: the live panel is idle
 * once the latest run has ended, and names the running run with the run row's own counters.
 */

let db: Db;
let teardown: () => Promise<void>;
let token: string;
let siteId: string;
let tenantId: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'owner@crawl-status-snapshot.test');
  token = owner.token;
  tenantId = owner.tenantId;
  siteId = await insertSite(db, tenantId, 'crawl-status-snapshot.test');
});
afterAll(() => teardown());

const status = () => v1({ token }).GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } });

it('answers the live counters and the latest run from the same moment, whatever commits meanwhile', async () => {
  const contradictions: string[] = [];
  for (let round = 0; round < 25; round++) {
    const [run] = await db
      .insert(runs)
      .values({
        site_id: siteId,
        tenant_id: tenantId,
        started_at: Date.now() + round,
        state: 'running',
        kind: 'crawl',
        phase: 'crawling',
      })
      .returning({ id: runs.id });
    const runId = run!.id;
    // The crawl's one batch, then its end, committing while the status is read.
    const finish = (async () => {
      await db
        .update(runs)
        .set({ pages_crawled: 8, links_checked: 12, broken_count: 2 })
        .where(eq(runs.id, runId));
      await db
        .update(runs)
        .set({ state: 'completed', phase: 'done', finished_at: Date.now() })
        .where(eq(runs.id, runId));
    })();
    const [res] = await Promise.all([status(), finish]);
    expect(res.status).toBe(200);
    const { live, latestRun } = res.body;
    expect(latestRun.id).toBe(runId);
    if (latestRun.state === 'running') {
      if (live.runId !== runId)
        contradictions.push(`round ${round}: live ${live.state} beside a running run`);
      const counters = [live.pagesCrawled, live.linksChecked, live.brokenCount];
      const row = [latestRun.pages_crawled, latestRun.links_checked, latestRun.broken_count];
      if (counters.join() !== row.join())
        contradictions.push(`round ${round}: live ${counters} beside ${row}`);
    } else if (live.state !== 'idle') {
      contradictions.push(
        `round ${round}: live ${live.state} ${live.linksChecked} beside a ${latestRun.state} run`,
      );
    }
  }
  expect(contradictions).toEqual([]);
  // After the races, the finished run and an idle panel.
  const settled = await status();
  expect(settled.body.live).toMatchObject({ state: 'idle', runId: null });
  expect(settled.body.latestRun).toMatchObject({
    state: 'completed',
    pages_crawled: 8,
    links_checked: 12,
    broken_count: 2,
  });
});
