import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { a11yPages, runs, sites } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/**
 * The status endpoint's accessibility side: `latestA11yRun` is the latest run that scanned or is
 * scanning accessibility (a standalone a11y run or a chained crawl), and `a11yLive` the live state
 * of a render pass in progress.
 */
let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let siteId: string;
const MIN = 60_000;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'a11y-status@example.com');
  siteId = await insertSite(db, owner.tenantId, 'status.example');
  await db.update(sites).set({ a11y_enabled: 1 }).where(eq(sites.id, siteId));
});

afterAll(async () => teardown());

const status = (id = siteId) =>
  v1({ token: owner.token }).GET('/v1/sites/{id}/status', { params: { path: { id } } });

async function insertRun(values: Partial<typeof runs.$inferInsert>): Promise<string> {
  const [run] = await db
    .insert(runs)
    .values({
      site_id: siteId,
      tenant_id: owner.tenantId,
      started_at: Date.now(),
      state: 'completed',
      kind: 'crawl',
      ...values,
    })
    .returning({ id: runs.id });
  return run!.id;
}

describe('GET /v1/sites/{id}/status, accessibility', () => {
  it('names a chained crawl as latestA11yRun, not a links-only crawl, and shows its pass live', async () => {
    const t = Date.now();
    const standalone = await insertRun({
      kind: 'a11y',
      started_at: t - 30 * MIN,
      a11y_score: 80,
      a11y_phase: 'done',
    });
    await insertRun({ started_at: t - 20 * MIN, chain_a11y: 0 });
    expect((await status()).body.latestA11yRun).toMatchObject({ id: standalone, kind: 'a11y' });

    const chained = await insertRun({ started_at: t - 10 * MIN, chain_a11y: 1, a11y_phase: 'rendering' });
    await db.insert(a11yPages).values(
      ['a', 'b', 'c'].map((p, i) => ({
        run_id: chained,
        tenant_id: owner.tenantId,
        page_url: `https://status.example/${p}`,
        status: i === 0 ? ('scanned' as const) : ('pending' as const),
        created_at: t,
      })),
    );
    const res = await status();
    expect(res.status).toBe(200);
    expect(res.body.latestA11yRun).toMatchObject({ id: chained, kind: 'crawl', state: 'completed' });
    expect(res.body.latestRun).toMatchObject({ id: chained });
    expect(res.body.a11yLive).toEqual({
      state: 'rendering',
      runId: chained,
      pagesRendered: 1,
      pagesTotal: 3,
    });
    // The crawl's own live state is idle: the crawl is over, only its pass runs.
    expect(res.body.live).toMatchObject({ state: 'idle', runId: null });

    await db.update(runs).set({ a11y_phase: 'done' }).where(eq(runs.id, chained));
    expect((await status()).body.a11yLive).toEqual({
      state: 'idle',
      runId: null,
      pagesRendered: 0,
      pagesTotal: 0,
    });
  });
});
