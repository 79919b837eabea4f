import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { a11yPages, runs, uptimeMonitors, usageLedger } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, insertApiKey, signInOwner } from '../support/http';

/*
 * The overview at a glance (issue 12, item 4): the sites list's latest crawl of any origin with its
 * direction since the previous one, and the organization usage's work in progress and monitors,
 * which the billing page sets against the allowances.
 */

const HOUR = 3_600_000;
let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@glance.test');
});
afterAll(() => teardown());

async function newSite(host: string, body: Record<string, unknown> = {}) {
  const res = await v1({ token: owner.token }).POST('/v1/sites', {
    body: { rootUrl: `https://${host}/`, ...body },
  });
  expect(res.status).toBe(201);
  return res.body.site as { id: string; last_run_at: number | null };
}

type RunRow = typeof runs.$inferInsert;
async function addRun(siteId: string, values: Partial<RunRow> & Pick<RunRow, 'started_at' | 'state'>) {
  const [row] = await db
    .insert(runs)
    .values({ site_id: siteId, tenant_id: owner.tenantId, kind: 'crawl', ...values })
    .returning();
  if (!row) throw new Error('run insert returned no row');
  return row;
}

const listSites = (token = owner.token) => v1({ token }).GET('/v1/sites');

describe('GET /v1/sites crawls', () => {
  it("gives each site's latest crawl of any origin and its two latest completed crawls", async () => {
    const never = await newSite('never.glance.test');
    const site = await newSite('busy.glance.test');
    const t0 = Date.now() - 10 * HOUR;
    const older = await addRun(site.id, {
      started_at: t0,
      finished_at: t0 + HOUR,
      state: 'completed',
      trigger: 'schedule',
      broken_count: 5,
      seo_score: 70,
    });
    const newer = await addRun(site.id, {
      started_at: t0 + 2 * HOUR,
      finished_at: t0 + 3 * HOUR,
      state: 'completed',
      trigger: 'manual',
      broken_count: 3,
      seo_score: null,
    });
    // Neither a failed crawl nor a standalone accessibility scan is a result to compare with.
    await addRun(site.id, { started_at: t0 + 4 * HOUR, finished_at: t0 + 4 * HOUR, state: 'failed' });
    await addRun(site.id, { started_at: t0 + 5 * HOUR, state: 'completed', kind: 'a11y', a11y_score: 90 });
    // The newest crawl was started by hand (or through the API): last_run_at, the scheduler's clock,
    // does not move for it, and the list still shows it.
    const running = await addRun(site.id, { started_at: t0 + 6 * HOUR, state: 'running', trigger: 'manual' });

    const res = await listSites();
    expect(res.status).toBe(200);
    expect(res.body.sites.find((s: { id: string }) => s.id === site.id).last_run_at).toBeNull();
    expect(res.body.crawls).toEqual([
      { siteId: never.id, lastCrawl: null, latest: null, previous: null },
      {
        siteId: site.id,
        lastCrawl: { runId: running.id, state: 'running', startedAt: t0 + 6 * HOUR, finishedAt: null },
        latest: { runId: newer.id, startedAt: t0 + 2 * HOUR, brokenCount: 3, seoScore: null },
        previous: { runId: older.id, startedAt: t0, brokenCount: 5, seoScore: 70 },
      },
    ]);
  });

  it("lists only the crawls of the sites the caller sees (a member's grants, a scoped key)", async () => {
    const list = await listSites();
    const [first, second] = list.body.sites as { id: string }[];
    if (!first || !second) throw new Error('the sites of the previous test are missing');
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'member@glance.test',
      role: 'member',
    });
    const granted = await v1({ token: owner.token }).PATCH('/v1/members/{memberId}/access', {
      params: { path: { memberId: member.memberId } },
      body: { siteIds: [second.id] },
    });
    expect(granted.status).toBe(200);
    const seen = await listSites(member.token);
    expect(seen.body.crawls.map((c: { siteId: string }) => c.siteId)).toEqual([second.id]);

    const apiKey = await insertApiKey(db, owner.tenantId, { siteIds: [first.id] });
    const byKey = await v1({ apiKey }).GET('/v1/sites');
    expect(byKey.body.crawls).toEqual([{ siteId: first.id, lastCrawl: null, latest: null, previous: null }]);
  });
});

describe('GET /v1/usage in_progress and monitors', () => {
  it('counts the pages of work still running apart from the ledger, and the monitors of each site', async () => {
    const site = await newSite('usage.glance.test');
    const now = Date.now();
    await db.insert(usageLedger).values({
      tenant_id: owner.tenantId,
      site_id: site.id,
      run_id: crypto.randomUUID(),
      hostname: 'usage.glance.test',
      run_kind: 'crawl',
      billing_period: new Date(now).toISOString().slice(0, 7),
      pages_crawled: 40,
      pages_rendered: 0,
      links_checked: 90,
      created_at: now,
    });
    await addRun(site.id, { started_at: now - 1000, state: 'running', pages_crawled: 12 });
    // A standalone accessibility pass rendering: two pages stored, one still pending.
    const pass = await addRun(site.id, {
      started_at: now - 500,
      state: 'running',
      kind: 'a11y',
      a11y_phase: 'rendering',
    });
    await db.insert(a11yPages).values(
      ['a', 'b', 'c'].map((p, i) => ({
        tenant_id: owner.tenantId,
        run_id: pass.id,
        page_url: `https://usage.glance.test/${p}`,
        status: i < 2 ? ('scanned' as const) : ('pending' as const),
        created_at: now,
      })),
    );
    for (const n of [1, 2, 3]) {
      await db.insert(uptimeMonitors).values({
        tenant_id: owner.tenantId,
        site_id: site.id,
        url: `https://usage.glance.test/${n}`,
        enabled: 1,
        created_at: now,
        updated_at: now,
      });
    }

    const usage = await v1({ token: owner.token }).GET('/v1/usage');
    expect(usage.status).toBe(200);
    const row = usage.body.sites.find((s: { site_id: string }) => s.site_id === site.id);
    expect(row).toMatchObject({
      pages_crawled: 40,
      pages_rendered: 0,
      in_progress: { pages_crawled: 12, pages_rendered: 2 },
      monitors: 3,
    });
    // The ledger's totals stay the ledger's: work in progress is not billed until it finishes.
    expect(usage.body.totals.pages_crawled).toBe(40);
    const idle = usage.body.sites.find((s: { hostname: string }) => s.hostname === 'never.glance.test');
    expect(idle).toMatchObject({ in_progress: { pages_crawled: 0, pages_rendered: 0 }, monitors: 0 });
  });
});
