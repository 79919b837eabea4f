import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlEvents } from '@/jobs/crawl-events';
import type { A11yEvents } from '@/lib/a11y/runs/events';
import { runA11ySchedulerTick } from '@/lib/a11y/runs/scheduler';
import { setOverage } from '@/lib/billing/settings';
import { runSchedulerTick } from '@/lib/crawl/runs/scheduler';
import { isCompleteContext, loadDashboardContext } from '@/lib/dashboard/session';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { listMonitorOverviews } from '@/lib/uptime/overview';
import { v1 } from '../support/api-client';
import { countingDb as countingDbOf } from '../support/counting-db';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * Query counts on the hot paths (issue 11 item 5), measured with a drizzle logger on the test
 * database's own client: a count of statements, not a timing, so the bound holds on any machine.
 */

let db: Db;
let driver: string;
let teardown: () => Promise<void>;
let token: string;
let tenantId: string;

const countingDb = () => countingDbOf(db, driver);

beforeAll(async () => {
  process.env.INCLUDED_SITES = '100';
  ({ db, driver, teardown } = await useTestDatabase());
  ({ token, tenantId } = await signInOwner(db, 'query-counts@example.com'));
});

afterAll(async () => {
  delete process.env.INCLUDED_SITES;
  await teardown();
});

describe('the scheduler tick', () => {
  // Per started site only its own writes remain: the clock claim (UPDATE) and the run (INSERT).
  const PER_STARTED_SITE = 2;
  // The one read of the due sites with their pause state, overage setting and month's usage.
  const PER_TICK = 1;

  it.each([
    ['off', false],
    ['on', true],
  ])(
    'reads every due site with its pause state, settings and usage at once (overage %s)',
    async (_, overage) => {
      await setOverage(db, tenantId, overage);
      await db.delete(schema.runs);
      await db.delete(schema.sites);
      const N = 20;
      for (let i = 0; i < N; i++) {
        const created = await v1({ token }).POST('/v1/sites', {
          body: { rootUrl: `http://127.0.0.${i + 1}:9/` },
        });
        expect(created.status).toBe(201);
      }
      const counting = await countingDb();
      const tick = await runSchedulerTick(counting.db, Date.now() + 60_000, crawlEvents);
      expect(tick.started).toHaveLength(N);
      console.log(
        `query count: scheduler tick, overage ${_}: ${counting.queries()} for ${N} due sites (${(counting.queries() / N).toFixed(1)} per site)`,
      );
      expect(counting.queries()).toBeLessThanOrEqual(PER_TICK + PER_STARTED_SITE * N);
    },
  );
});

describe('the accessibility scheduler tick', () => {
  // As the crawl's: one read of every due site (pause state, overage, month's pages rendered, a pass
  // in progress, last completed crawl), then per started site its clock claim and its run.
  const PER_STARTED_SITE = 2;
  const PER_TICK = 1;
  const noEvents: A11yEvents = { async requested() {}, async resumed() {} };

  it('reads every due site with its pause state, usage and last crawl at once', async () => {
    await setOverage(db, tenantId, false);
    await db.delete(schema.runs);
    await db.delete(schema.sites);
    const N = 20;
    const now = Date.now();
    for (let i = 0; i < N; i++) {
      const created = await v1({ token }).POST('/v1/sites', {
        body: { rootUrl: `http://127.0.0.${i + 1}:9/`, a11yEnabled: true },
      });
      expect(created.status).toBe(201);
      const id = created.body.site.id as string;
      await db
        .update(schema.sites)
        .set({ a11y_next_run_at: now - 60_000 })
        .where(eq(schema.sites.id, id));
      await db.insert(schema.runs).values({
        site_id: id,
        tenant_id: tenantId,
        started_at: now - 3_600_000,
        finished_at: now - 3_000_000,
        state: 'completed',
        kind: 'crawl',
      });
    }
    const counting = await countingDb();
    const tick = await runA11ySchedulerTick(counting.db, now, noEvents);
    expect(tick.started).toHaveLength(N);
    console.log(`query count: accessibility scheduler tick: ${counting.queries()} for ${N} due sites`);
    expect(counting.queries()).toBeLessThanOrEqual(PER_TICK + PER_STARTED_SITE * N);
  });
});

describe('a dashboard render', () => {
  // The session and its user (better-auth), the user's organizations, their membership: once each.
  const CONTEXT_QUERIES = 4;

  it('resolves the session once for its whole context', async () => {
    const counting = await countingDb();
    const context = await loadDashboardContext(
      counting.db,
      new Headers({ authorization: `Bearer ${token}` }),
    );
    if (!context || !isCompleteContext(context)) throw new Error('expected a complete dashboard context');
    expect(context.role).toBe('owner');
    expect(context.activeOrganization.id).toBe(tenantId);
    expect(context.organizations.map((o) => o.id)).toEqual([tenantId]);
    console.log(
      `query count: dashboard context: ${counting.queries()} queries, ${counting.sessionLookups()} session lookups`,
    );
    expect(counting.sessionLookups()).toBe(1);
    expect(counting.queries()).toBeLessThanOrEqual(CONTEXT_QUERIES);
  });

  it('answers null without a session', async () => {
    expect(await loadDashboardContext(db, new Headers())).toBeNull();
    expect(await loadDashboardContext(db, new Headers({ authorization: 'Bearer not-a-session' }))).toBeNull();
  });
});

describe("the Uptime tab's monitors list", () => {
  it('reads every monitor with its live state and last day in the same statements for 1 monitor as for 10', async () => {
    const principal = { tenantId, via: 'key' as const, siteIds: 'all' as const, canCrawl: true };
    const siteWith = async (host: string, monitors: number) => {
      const siteId = await insertSite(db, tenantId, host);
      for (let n = 0; n < monitors; n++) {
        await db.insert(schema.uptimeMonitors).values({
          tenant_id: tenantId,
          site_id: siteId,
          url: `https://${host}/${n}`,
          enabled: 1,
          created_at: n,
          updated_at: n,
        });
      }
      return siteId;
    };
    const statements = async (siteId: string, expected: number) => {
      const counting = await countingDb();
      expect(await listMonitorOverviews(counting.db, principal, siteId)).toHaveLength(expected);
      return counting.queries();
    };
    const one = await statements(await siteWith('overview-one.example', 1), 1);
    const ten = await statements(await siteWith('overview-ten.example', 10), 10);
    console.log(`query count: monitors list, ${one} for 1 monitor, ${ten} for 10`);
    expect(ten).toBe(one);
    expect(one).toBeLessThanOrEqual(6);
  });
});
