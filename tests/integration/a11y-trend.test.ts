import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { a11yScoreTrend } from '@/lib/dashboard/a11y';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The Accessibility tab's trend loader: the stored a11y_score of a site's runs that scanned (either
 * kind), oldest first, never another tenant's or a run that did not scan.
 */

let db: Db;
let teardown: () => Promise<void>;
let tenantA: string;
let tenantB: string;
const owner = (tenantId: string): Principal => ({
  tenantId,
  via: 'session',
  role: 'owner',
  siteIds: 'all',
  canCrawl: true,
});
let siteA: string;
let siteB: string;

async function insertRun(
  tenantId: string,
  siteId: string,
  startedAt: number,
  kind: 'crawl' | 'a11y',
  score: number | null,
) {
  await db.insert(runs).values({
    tenant_id: tenantId,
    site_id: siteId,
    kind,
    state: 'completed',
    started_at: startedAt,
    finished_at: startedAt + 1000,
    a11y_score: score,
  });
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ({ tenantId: tenantA } = await signInOwner(db, 'trend-a@example.com'));
  ({ tenantId: tenantB } = await signInOwner(db, 'trend-b@example.com'));
  siteA = await insertSite(db, tenantA, 'trend-a.example.com');
  siteB = await insertSite(db, tenantB, 'trend-b.example.com');
  await insertRun(tenantA, siteA, 1_000, 'a11y', 40);
  await insertRun(tenantA, siteA, 2_000, 'crawl', null); // a links-only crawl: no score, not a point
  await insertRun(tenantA, siteA, 3_000, 'crawl', 55); // a crawl that chained the render pass
  await insertRun(tenantA, siteA, 4_000, 'a11y', 72);
  await insertRun(tenantB, siteB, 2_500, 'a11y', 99);
});

afterAll(async () => {
  await teardown();
});

describe('a11yScoreTrend', () => {
  it('lists the runs that scanned, of both kinds, oldest first', async () => {
    const trend = await a11yScoreTrend(db, owner(tenantA), siteA);
    expect(trend.map((p) => [p.startedAt, p.kind, p.score])).toEqual([
      [1_000, 'a11y', 40],
      [3_000, 'crawl', 55],
      [4_000, 'a11y', 72],
    ]);
  });

  it('keeps the most recent runs when limited', async () => {
    const trend = await a11yScoreTrend(db, owner(tenantA), siteA, 2);
    expect(trend.map((p) => p.score)).toEqual([55, 72]);
  });

  it("is a not-found for another tenant's site", async () => {
    await expect(a11yScoreTrend(db, owner(tenantB), siteA)).rejects.toBeInstanceOf(NotFoundError);
    expect((await a11yScoreTrend(db, owner(tenantB), siteB)).map((p) => p.score)).toEqual([99]);
  });
});
