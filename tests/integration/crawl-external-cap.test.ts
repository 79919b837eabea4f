import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOverage } from '@/lib/billing/settings';
import { workRun } from '@/lib/crawl/engine/step';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { seedRun } from '@/lib/crawl/runs/seed';
import type { Db } from '@/lib/db/client';
import { crawlUrls, runs } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { htmlPage, registerAndStart } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * Issue 10 item 6: external link checks per run are capped, so one page (or one site) cannot queue
 * hundreds of thousands of checks; the run and the report say when the cap was hit.
 */

const CAP = 4;

let db: Db;
let teardown: () => Promise<void>;
let token: string;
let site: TestServer;
let external: TestServer;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  let tenantId: string;
  ({ token, tenantId } = await signInOwner(db, 'external-cap@example.com'));
  await setOverage(db, tenantId, true);
  external = await startServer('127.0.0.2', {
    '*': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    },
  });
  const E = external.origin;
  const links = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => `<a href="${E}/ext/${from + k}">E${from + k}</a>`).join(' ');
  site = await startServer('127.0.0.1', {
    '/robots.txt': { status: 404 },
    '/sitemap.xml': { status: 404 },
    '/': htmlPage(`${links(0, 3)} <a href="/more">More</a>`),
    '/more': htmlPage(links(3, 10)),
  });
});

afterAll(async () => {
  await Promise.all([site.close(), external.close()]);
  await closeDispatchers();
  await teardown();
});

describe('the cap on external link checks per run', () => {
  it('checks the first external links up to the cap, records the rest as not checked and says so', async () => {
    const { siteId, runId } = await registerAndStart(token, site.url(), {}, { chainA11y: false });
    await seedRun(db, runId);
    for (let steps = 0; steps < 20; steps++) {
      if ((await workRun(db, runId, { maxExternalChecks: CAP })).status === 'exhausted') break;
    }
    await finalizeRun(db, runId);

    const externals = await db
      .select()
      .from(crawlUrls)
      .where(sql`${crawlUrls.run_id} = ${runId} and ${crawlUrls.kind} = 'external'`);
    expect(externals).toHaveLength(10);
    const checked = externals.filter((u) => u.verdict === 'ok');
    const skipped = externals.filter((u) => u.verdict === 'skipped');
    expect(checked).toHaveLength(CAP);
    expect(skipped).toHaveLength(10 - CAP);
    for (const url of skipped) {
      expect(url.detail).toBe(`not checked: the run reached its cap of ${CAP} external link checks`);
    }
    // Only the checks within the cap reached the other host.
    const paths = new Set(external.requests.map((r) => r.path));
    expect([...paths].sort()).toEqual(checked.map((u) => new URL(u.url).pathname).sort());

    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({ state: 'completed', pages_crawled: 2 });
    expect(run?.limits_hit).toEqual([
      { limit: 'external-checks', detail: expect.stringMatching(/^4 external links were checked/) },
    ]);
    const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    expect(report.body.run).toMatchObject({ cut_short: 1, limits_hit: run?.limits_hit });
  });
});
