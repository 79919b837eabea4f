import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { resetConfig } from '@/lib/config';
import { performanceView } from '@/lib/dashboard/fielddata';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { syncFieldData } from '@/lib/fielddata/sync';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { type CruxPoint, cruxKey, type FakeCrux, startFakeCrux } from '../support/google';
import { signInOwner } from '../support/http';

/*
 * The Performance tab's loader (lib/dashboard/fielddata.ts) against a local CrUX stand-in: each
 * state the page words differently (app off, never synced with and without a key, no data, a
 * device without data, a failed sync), and the report it shows is the API's, byte for byte.
 */

const API_KEY = 'crux-view-key-AIzaSyExample';
const noWait = { sleep: async () => {} };

let db: Db;
let teardown: () => Promise<void>;
let crux: FakeCrux;
let owner: { token: string; tenantId: string };
let principal: Principal;

/** A week without data in the middle, CLS as strings: the gap must stay null. */
const SERIES: CruxPoint[] = [
  { lastDate: '2026-10-25', lcp: 2100, inp: 160, cls: '0.06', ttfb: 720 },
  { lastDate: '2026-11-01', lcp: null, inp: null, cls: null, ttfb: null },
  { lastDate: '2026-11-08', lcp: 2200, inp: 170, cls: '0.07', ttfb: 700 },
  { lastDate: '2026-11-15', lcp: 2300, inp: 180, cls: '0.08', ttfb: 690 },
];

/**
 * A site whose root URL nothing answers (a closed port on loopback), so its origin is its own and
 * the sync asks CrUX about exactly that.
 */
async function siteAt(host: string, port: number): Promise<{ id: string; origin: string }> {
  const id = await insertSite(db, owner.tenantId, host);
  const origin = `http://127.0.0.5:${port}`;
  await db
    .update(sites)
    .set({ root_url: `${origin}/` })
    .where(eq(sites.id, id));
  return { id, origin };
}

const useKey = (key: string | undefined) => {
  if (key === undefined) delete process.env.CRUX_API_KEY;
  else process.env.CRUX_API_KEY = key;
  resetConfig();
};

beforeAll(async () => {
  crux = await startFakeCrux(API_KEY);
  process.env.CRUX_API_URL = crux.baseUrl;
  useKey(API_KEY);
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'perf-view-owner@example.com');
  principal = { tenantId: owner.tenantId, via: 'session', role: 'owner', siteIds: 'all', canCrawl: true };
});

afterAll(async () => {
  await crux.server.close();
  await closeDispatchers();
  await teardown();
  delete process.env.CRUX_API_URL;
  useKey(undefined);
});

describe('the Performance tab loader', () => {
  it('says the app is off, and nothing else, when it is off', async () => {
    const { id } = await siteAt('perf-off.example', 9);
    await db.update(sites).set({ performance_enabled: 0 }).where(eq(sites.id, id));
    expect(await performanceView(db, principal, id)).toEqual({ state: 'off' });
  });

  it('tells a site never synced on a server with a key from one without (not configured)', async () => {
    const { id } = await siteAt('perf-fresh.example', 10);
    expect(await performanceView(db, principal, id)).toEqual({
      state: 'never-synced',
      configured: true,
      origin: null,
      lastError: null,
    });
    useKey(undefined);
    try {
      expect(await performanceView(db, principal, id)).toMatchObject({
        state: 'never-synced',
        configured: false,
      });
    } finally {
      useKey(API_KEY);
    }
  });

  it('shows the API report of every device, a device CrUX lacks as null, and gaps as null', async () => {
    const { id, origin } = await siteAt('perf-data.example', 11);
    crux.data.set(cruxKey(origin), SERIES);
    crux.data.set(
      cruxKey(origin, 'PHONE'),
      SERIES.map((p) => ({ ...p, lcp: p.lcp && p.lcp + 1500 })),
    );
    await syncFieldData(
      db,
      { tenantId: owner.tenantId, siteId: id },
      { retry: noWait, now: Date.UTC(2026, 10, 20) },
    );

    const view = await performanceView(db, principal, id);
    if (view.state !== 'ok') throw new Error(`expected data, got ${view.state}`);
    expect(view).toMatchObject({
      checkedAt: Date.UTC(2026, 10, 20),
      configured: true,
      origin,
      lastError: null,
    });
    expect(view.reports.DESKTOP).toBeNull();
    expect(view.reports.ALL?.verdict).toBe('pass');
    expect(view.reports.PHONE?.verdict).toBe('fail');
    expect(view.reports.ALL?.series[1]).toEqual({
      periodEnd: '2026-11-01',
      lcp: null,
      inp: null,
      cls: null,
      ttfb: null,
    });

    // The page and GET /v1/sites/{id}/fielddata cannot disagree: same service, same figures.
    for (const formFactor of ['ALL', 'PHONE'] as const) {
      const res = await v1({ token: owner.token }).GET('/v1/sites/{id}/fielddata', {
        params: { path: { id }, query: { formFactor: formFactor } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(view.reports[formFactor]);
    }
  });

  it('says a failed sync happened while keeping the last good data', async () => {
    const { id, origin } = await siteAt('perf-flaky.example', 12);
    crux.data.set(cruxKey(origin), SERIES);
    await syncFieldData(db, { tenantId: owner.tenantId, siteId: id }, { retry: noWait });
    crux.throttleNext(10, 1);
    try {
      await expect(
        syncFieldData(db, { tenantId: owner.tenantId, siteId: id }, { retry: { ...noWait, attempts: 2 } }),
      ).rejects.toThrow(/429/);
    } finally {
      crux.throttleNext(0, 0);
    }
    const view = await performanceView(db, principal, id);
    expect(view.state).toBe('ok');
    expect(view).toMatchObject({ lastError: expect.stringMatching(/429/) });
  });

  it("reports an origin Chrome's dataset does not know as no-data, with when it was checked", async () => {
    const { id } = await siteAt('perf-unknown.example', 13);
    await syncFieldData(
      db,
      { tenantId: owner.tenantId, siteId: id },
      { retry: noWait, now: 1_795_000_000_000 },
    );
    expect(await performanceView(db, principal, id)).toMatchObject({
      state: 'no-data',
      checkedAt: 1_795_000_000_000,
    });
  });

  it("is another tenant's site: not found", async () => {
    const { id } = await siteAt('perf-private.example', 14);
    const stranger = await signInOwner(db, 'perf-view-stranger@example.com');
    const theirs: Principal = { ...principal, tenantId: stranger.tenantId };
    await expect(performanceView(db, theirs, id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
