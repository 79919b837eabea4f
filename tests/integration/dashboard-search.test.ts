import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { resetConfig } from '@/lib/config';
import { searchTabDays, searchTabView } from '@/lib/dashboard/search';
import type { Db } from '@/lib/db/client';
import { type SearchStatus, searchAnalytics, searchConnections, sites } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The Search tab's read (lib/dashboard/search): the connection as the API projects it, and the
 * stored analytics once a property is chosen, for any member who sees the site; never another
 * tenant's. Rows are written directly: connecting through Google is tests/integration/search.test.ts.
 */

const PROPERTY = 'https://www.tab.example/';
const NOW = Date.parse('2026-11-24T12:00:00Z');
const DAY = 86_400_000;

let db: Db;
let teardown: () => Promise<void>;
let tenantA: string;
let tenantB: string;
const principal = (
  tenantId: string,
  role: 'owner' | 'member',
  siteIds: 'all' | string[] = 'all',
): Principal => ({
  tenantId,
  via: 'session',
  role,
  siteIds,
  canCrawl: false,
});

async function connectedSite(host: string, status: SearchStatus | null, property: string | null) {
  const siteId = await insertSite(db, tenantA, host);
  await db.insert(searchConnections).values({
    tenant_id: tenantA,
    site_id: siteId,
    status,
    account_email: status ? 'owner@gmail.example' : null,
    property,
    refresh_token_enc: null,
    analytics_synced_at: property ? NOW - DAY : null,
    error: status === 'error' ? 'Google refused the stored authorization' : null,
    created_at: NOW - 100 * DAY,
    updated_at: NOW - DAY,
    drop_threshold_pct: 40,
    drop_min_clicks: 50,
  });
  return siteId;
}

/** `count` days ending 3 days before NOW (Search Console's final data lag), `clicks` each. */
async function storeDays(siteId: string, count: number, clicksOf: (i: number) => number) {
  const end = NOW - 3 * DAY;
  await db.insert(searchAnalytics).values(
    Array.from({ length: count }, (_, i) => {
      const clicks = clicksOf(i);
      return {
        tenant_id: tenantA,
        site_id: siteId,
        day: new Date(end - (count - 1 - i) * DAY).toISOString().slice(0, 10),
        clicks,
        impressions: clicks * 10,
        ctr: 0.1,
        position: 4.2,
      };
    }),
  );
}

beforeAll(async () => {
  process.env.GOOGLE_CLIENT_ID = 'tab-test.apps.googleusercontent.com';
  process.env.GOOGLE_CLIENT_SECRET = 'GOCSPX-tab-test';
  resetConfig();
  ({ db, teardown } = await useTestDatabase());
  ({ tenantId: tenantA } = await signInOwner(db, 'search-tab-a@example.com'));
  ({ tenantId: tenantB } = await signInOwner(db, 'search-tab-b@example.com'));
});

afterAll(async () => {
  await teardown();
  delete process.env.GOOGLE_CLIENT_ID;
  delete process.env.GOOGLE_CLIENT_SECRET;
  resetConfig();
});

describe('searchTabView', () => {
  it('a site never connected: the empty projection, no analytics', async () => {
    const siteId = await insertSite(db, tenantA, 'never.tab.example');
    expect(await searchTabView(db, principal(tenantA, 'owner'), siteId, 28, NOW)).toEqual({
      seoEnabled: true,
      connection: {
        configured: true,
        status: null,
        accountEmail: null,
        property: null,
        analyticsSyncedAt: null,
        error: null,
        dropAlert: { thresholdPct: 30, minClicks: 100 },
      },
      analytics: null,
    });
  });

  it('connected: the days asked for, the 7-against-7 comparison, the site’s drop rule, for a member too', async () => {
    const siteId = await connectedSite('connected.tab.example', 'connected', PROPERTY);
    // 90 days: 100 clicks a day, then the last 7 at 50 (a 50% fall, over the site's 40% rule).
    await storeDays(siteId, 90, (i) => (i >= 83 ? 50 : 100));
    const member = principal(tenantA, 'member', [siteId]);
    const view = await searchTabView(db, member, siteId, 28, NOW);
    expect(view.connection).toMatchObject({
      status: 'connected',
      property: PROPERTY,
      analyticsSyncedAt: NOW - DAY,
      dropAlert: { thresholdPct: 40, minClicks: 50 },
    });
    expect(view.analytics?.series).toHaveLength(28);
    expect(view.analytics?.series.at(-1)).toMatchObject({ day: '2026-11-21', clicks: 50, impressions: 500 });
    expect(view.analytics?.comparison).toMatchObject({
      last7: { from: '2026-11-15', to: '2026-11-21', clicks: 350 },
      previous7: { from: '2026-11-08', to: '2026-11-14', clicks: 700 },
      clicksChangePct: -50,
      drop: true,
    });
    expect((await searchTabView(db, member, siteId, 90, NOW)).analytics?.series).toHaveLength(90);
  });

  it('error after a property was chosen keeps the stored days readable; pending-property has none', async () => {
    const failing = await connectedSite('error.tab.example', 'error', PROPERTY);
    await storeDays(failing, 10, () => 5);
    const view = await searchTabView(db, principal(tenantA, 'owner'), failing, 28, NOW);
    expect(view.connection.error).toMatch(/refused/);
    expect(view.analytics?.series).toHaveLength(10);

    const pending = await connectedSite('pending.tab.example', 'pending-property', null);
    const waiting = await searchTabView(db, principal(tenantA, 'owner'), pending, 28, NOW);
    expect(waiting.connection.status).toBe('pending-property');
    expect(waiting.analytics).toBeNull();
  });

  it('with the SEO app off: says so, and reads no analytics', async () => {
    const siteId = await connectedSite('seo-off.tab.example', 'connected', PROPERTY);
    await storeDays(siteId, 14, () => 10);
    await db.update(sites).set({ seo_enabled: 0 }).where(eq(sites.id, siteId));
    const view = await searchTabView(db, principal(tenantA, 'owner'), siteId, 28, NOW);
    expect(view.seoEnabled).toBe(false);
    expect(view.connection.status).toBe('connected');
    expect(view.analytics).toBeNull();
  });

  it('is a not-found for another tenant, and for a member without the site', async () => {
    const siteId = await connectedSite('private.tab.example', 'connected', PROPERTY);
    await expect(searchTabView(db, principal(tenantB, 'owner'), siteId, 28, NOW)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(searchTabView(db, principal(tenantA, 'member', []), siteId, 28, NOW)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('searchTabDays', () => {
  it('takes 28 or 90 from the query; anything else is 28', () => {
    expect(searchTabDays('90')).toBe(90);
    expect(searchTabDays('28')).toBe(28);
    for (const raw of [undefined, '7', 'x', ['90', '28'], '365']) expect(searchTabDays(raw)).toBe(28);
  });
});
