import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriod } from '@/lib/billing/period';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { appPauses, billingSettings, sites, usageLedger } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

const create = (token: string, rootUrl: string) => v1({ token }).POST('/v1/sites', { body: { rootUrl } });
const quota = async (token: string) => (await v1({ token }).GET('/v1/sites')).body.quota;
const billing = (token: string) => v1({ token }).GET('/v1/billing');
const setOverage = (token: string, overageEnabled: boolean) =>
  v1({ token }).PATCH('/v1/billing', { body: { overageEnabled } });

describe('site quota', () => {
  it('refuses a site past the included count with overage off, and frees the slot on delete', async () => {
    const { token } = await signInOwner(db, 'cap@billing.test');
    const made = [];
    for (const host of ['a', 'b', 'c']) {
      const res = await create(token, `https://${host}.example.com`);
      expect(res.status).toBe(201);
      made.push(res.body.site);
    }
    expect(await quota(token)).toEqual({ count: 3, included: 3, overageEnabled: false });
    const refused = await create(token, 'https://d.example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(
      'included site count used up: 3 of 3 sites registered and overage billing is off; turn overage on (PATCH /v1/billing) or delete a site',
    );

    const id = made[0].id;
    expect((await v1({ token }).DELETE('/v1/sites/{id}', { params: { path: { id } } })).status).toBe(200);
    expect((await quota(token)).count).toBe(2);
    expect((await create(token, 'https://d.example.com')).status).toBe(201);
    expect((await create(token, 'https://e.example.com')).status).toBe(403);
  });

  it('lets sites past the included count through once overage is on, and stops again when it is off', async () => {
    const { token } = await signInOwner(db, 'overage@billing.test');
    for (const host of ['a', 'b', 'c'])
      expect((await create(token, `https://${host}.example.com`)).status).toBe(201);
    expect((await create(token, 'https://d.example.com')).status).toBe(403);

    const on = await setOverage(token, true);
    expect(on.status).toBe(200);
    expect(on.body.overageEnabled).toBe(true);
    expect((await create(token, 'https://d.example.com')).status).toBe(201);
    expect((await create(token, 'https://e.example.com')).status).toBe(201);
    expect(await quota(token)).toEqual({ count: 5, included: 3, overageEnabled: true });

    expect((await setOverage(token, false)).body.overageEnabled).toBe(false);
    expect((await create(token, 'https://f.example.com')).status).toBe(403);
    expect((await quota(token)).count).toBe(5);
  });

  it('holds the cap exactly under concurrent registrations', async () => {
    const { token, tenantId } = await signInOwner(db, 'race@billing.test');
    expect((await create(token, 'https://a.example.com')).status).toBe(201);
    const results = await Promise.all(
      ['b', 'c', 'd', 'e', 'f'].map((host) => create(token, `https://${host}.example.com`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403]);
    expect(await db.select().from(sites).where(eq(sites.tenant_id, tenantId))).toHaveLength(3);
  });
});

describe('GET/PATCH /v1/billing', () => {
  it('starts with overage off, nothing paused and nothing to bill', async () => {
    const { token } = await signInOwner(db, 'fresh@billing.test');
    const res = await billing(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      overageEnabled: false,
      crawlPaused: false,
      a11yPaused: false,
      pausedSites: [],
      monitorsHeld: 0,
      // The subscription is shown (not "nothing beyond your subscription" with none in sight).
      subscription: {
        plan: 'Standard',
        priceCents: 4900,
        includedSites: 3,
        allowances: { pagesCrawled: 5000, pagesRendered: 1000, monitors: 2 },
      },
      prices: [
        { item: 'extra-site', unit: 'site', unitPriceCents: 1000, per: 1 },
        { item: 'pages-crawled', unit: '1000 pages crawled', unitPriceCents: 100, per: 1000 },
        { item: 'pages-rendered', unit: '1000 pages rendered', unitPriceCents: 500, per: 1000 },
        { item: 'extra-monitors', unit: 'monitor', unitPriceCents: 200, per: 1 },
      ],
      projected: {
        period: billingPeriod(),
        currency: 'USD',
        lines: [],
        totalCents: 0,
        subscriptionCents: 4900,
        billCents: 4900,
        ifSwitched: { overageEnabled: true, totalCents: 0, billCents: 4900 },
      },
    });
  });

  it('takes its prices and plan from the environment', async () => {
    const { token } = await signInOwner(db, 'prices@billing.test');
    const saved = { ...process.env };
    Object.assign(process.env, {
      PLAN_NAME: 'Agency',
      PLAN_PRICE_CENTS: '0',
      PRICE_EXTRA_SITE_CENTS: '2500',
      PRICE_1000_PAGES_CRAWLED_CENTS: '40',
    });
    resetConfig();
    try {
      const body = (await billing(token)).body;
      expect(body.subscription).toMatchObject({ plan: 'Agency', priceCents: 0 });
      expect(body.prices.slice(0, 2)).toEqual([
        { item: 'extra-site', unit: 'site', unitPriceCents: 2500, per: 1 },
        { item: 'pages-crawled', unit: '1000 pages crawled', unitPriceCents: 40, per: 1000 },
      ]);
      expect(body.projected).toMatchObject({ subscriptionCents: 0, billCents: 0 });
    } finally {
      process.env = saved;
      resetConfig();
    }
  });

  it('shows paused apps per site, itemizes the excess and lifts pauses when overage is turned on', async () => {
    const { token, tenantId } = await signInOwner(db, 'paused@billing.test');
    const site = (await create(token, 'https://busy.example.com')).body.site;
    const period = billingPeriod();
    const now = Date.now();
    await db.insert(appPauses).values({
      tenant_id: tenantId,
      site_id: site.id,
      app: 'crawl',
      billing_period: period,
      paused_at: now,
    });
    // A pause from last period no longer counts.
    await db.insert(appPauses).values({
      tenant_id: tenantId,
      site_id: site.id,
      app: 'a11y',
      billing_period: '2000-01',
      paused_at: 1,
    });
    await db.insert(usageLedger).values([
      {
        tenant_id: tenantId,
        site_id: site.id,
        hostname: 'busy.example.com',
        run_id: crypto.randomUUID(),
        run_kind: 'crawl',
        billing_period: period,
        pages_crawled: 4000,
        created_at: now,
      },
      {
        tenant_id: tenantId,
        site_id: site.id,
        hostname: 'busy.example.com',
        run_id: crypto.randomUUID(),
        run_kind: 'crawl',
        billing_period: period,
        pages_crawled: 2500,
        pages_rendered: 1200,
        created_at: now,
      },
      // Last period's usage is not on this bill.
      {
        tenant_id: tenantId,
        site_id: site.id,
        hostname: 'busy.example.com',
        run_id: crypto.randomUUID(),
        run_kind: 'crawl',
        billing_period: '2000-01',
        pages_crawled: 90000,
        created_at: 1,
      },
    ]);

    const off = (await billing(token)).body;
    expect(off).toMatchObject({ overageEnabled: false, crawlPaused: true, a11yPaused: false });
    expect(off.pausedSites).toEqual([
      { siteId: site.id, hostname: 'busy.example.com', app: 'crawl', pausedAt: now },
    ]);
    // The excess is shown, at no charge: with overage off nothing is billed beyond the subscription.
    expect(off.projected.lines).toEqual([
      expect.objectContaining({
        item: 'pages-crawled',
        siteId: site.id,
        hostname: 'busy.example.com',
        quantity: 1500,
        amountCents: 0,
      }),
      expect.objectContaining({ item: 'pages-rendered', siteId: site.id, quantity: 200, amountCents: 0 }),
    ]);
    expect(off.projected.totalCents).toBe(0);
    // The bill now and had overage been on: what the dashboard's confirmation shows before and after.
    expect(off.projected).toMatchObject({
      subscriptionCents: 4900,
      billCents: 4900,
      ifSwitched: { overageEnabled: true, totalCents: 250, billCents: 5150 },
    });

    const on = await setOverage(token, true);
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({
      overageEnabled: true,
      crawlPaused: false,
      a11yPaused: false,
      pausedSites: [],
    });
    // $1 per 1000 pages crawled, $5 per 1000 pages rendered.
    expect(on.body.projected.lines).toEqual([
      {
        item: 'pages-crawled',
        description: 'busy.example.com: 1500 pages crawled beyond the 5000 allowance',
        siteId: site.id,
        hostname: 'busy.example.com',
        quantity: 1500,
        unit: '1000 pages crawled',
        unitPriceCents: 100,
        per: 1000,
        amountCents: 150,
      },
      expect.objectContaining({
        item: 'pages-rendered',
        quantity: 200,
        unitPriceCents: 500,
        amountCents: 100,
      }),
    ]);
    expect(on.body.projected.totalCents).toBe(250);
    // The confirmation's "after" was the bill that overage on now answers.
    expect(on.body.projected).toMatchObject({
      billCents: 5150,
      ifSwitched: { overageEnabled: false, totalCents: 0, billCents: 4900 },
    });
    // Turning overage on cleared this period's pause (and left older periods alone).
    const pauses = await db.select().from(appPauses).where(eq(appPauses.tenant_id, tenantId));
    expect(pauses.map((p) => p.billing_period)).toEqual(['2000-01']);
  });

  it('bills each site beyond the included count, and keeps a deleted site usage on the bill', async () => {
    const { token, tenantId } = await signInOwner(db, 'extra@billing.test');
    await setOverage(token, true);
    const made = [];
    for (const host of ['a', 'b', 'c', 'd', 'e'])
      made.push((await create(token, `https://${host}.example.com`)).body.site);
    const gone = made[4];
    await db.insert(usageLedger).values({
      tenant_id: tenantId,
      site_id: gone.id,
      hostname: gone.hostname,
      run_id: crypto.randomUUID(),
      run_kind: 'crawl',
      billing_period: billingPeriod(),
      pages_crawled: 5001,
      created_at: Date.now(),
    });
    await v1({ token }).DELETE('/v1/sites/{id}', { params: { path: { id: gone.id } } });

    const { lines, totalCents } = (await billing(token)).body.projected;
    expect(lines.map((l: { item: string; hostname: string }) => [l.item, l.hostname])).toEqual([
      ['extra-site', 'd.example.com'],
      ['pages-crawled', 'e.example.com'],
    ]);
    expect(lines[0]).toMatchObject({ quantity: 1, unitPriceCents: 1000, amountCents: 1000 });
    // One page over: a partial thousand is charged pro rata, rounded up to the cent.
    expect(lines[1]).toMatchObject({ quantity: 1, amountCents: 1 });
    expect(totalCents).toBe(1001);
  });

  it('validates the body and records the setting', async () => {
    const { token, tenantId } = await signInOwner(db, 'body@billing.test');
    // A body the document refuses, sent as it is: the route's own validation is what this checks.
    expect(
      await v1({ token }).raw({ method: 'PATCH', path: '/v1/billing', body: { overageEnabled: 'yes' } }),
    ).toMatchObject({
      status: 422,
      body: { error: 'overageEnabled: must be true or false' },
    });
    const bad = await v1({ token }).raw({ method: 'PATCH', path: '/v1/billing', body: '{' });
    expect(bad.status).toBe(400);
    expect((await setOverage(token, true)).status).toBe(200);
    const [row] = await db.select().from(billingSettings).where(eq(billingSettings.tenant_id, tenantId));
    expect(row?.overage_enabled).toBe(1);
    expect((await v1().GET('/v1/billing')).status).toBe(401);
  });
});
