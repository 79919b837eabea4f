import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { runs, sites, usageLedger } from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';

const MIN = 60_000;
let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@sites.test');
});
afterAll(() => teardown());

const create = (body: RequestBody<'/v1/sites', 'post'>, token = owner.token) =>
  v1({ token }).POST('/v1/sites', { body });
const patch = (id: string, body: RequestBody<'/v1/sites/{id}', 'patch'>, token = owner.token) =>
  v1({ token }).PATCH('/v1/sites/{id}', { params: { path: { id } }, body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const unchecked = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
  v1({ token: owner.token }).raw({ method, path, body });
const createUnchecked = (body: unknown) => unchecked('POST', '/v1/sites', body);
const remove = (id: string, token = owner.token) =>
  v1({ token }).DELETE('/v1/sites/{id}', { params: { path: { id } } });
const status = (id: string, token = owner.token) =>
  v1({ token }).GET('/v1/sites/{id}/status', { params: { path: { id } } });

/** Creates a site and hands back its row; every test works on its own site. */
async function newSite(body: Partial<RequestBody<'/v1/sites', 'post'>> = {}) {
  const res = await create({
    rootUrl: `https://s${Math.random().toString(36).slice(2)}.example.com`,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.site;
}

async function storedSite(id: string) {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  if (!row) throw new Error('site row missing');
  return row;
}

/** Deletes every site of the owner so quota never interferes between tests. */
async function clearSites() {
  await db.delete(sites).where(eq(sites.tenant_id, owner.tenantId));
}

describe('POST /v1/sites', () => {
  it('registers a site with every default of the spec and the first crawl due at once', async () => {
    await clearSites();
    const before = Date.now();
    const res = await create({ rootUrl: 'https://Example.COM/start?x=1#top' });
    const after = Date.now();
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['site']);
    const site = res.body.site;
    expect(site).toMatchObject({
      tenant_id: owner.tenantId,
      hostname: 'example.com',
      root_url: 'https://example.com/start?x=1',
      cadence_minutes: 10080,
      max_pages: 5000,
      max_concurrency: 100,
      enabled: 1,
      last_run_at: null,
      scanner_enabled: 1,
      a11y_enabled: 0,
      a11y_cadence_minutes: null,
      a11y_next_run_at: null,
      seo_enabled: 1,
      performance_enabled: 1,
      uptime_enabled: 1,
      fielddata_status: null,
      fielddata_checked_at: null,
      exclude_paths: '[]',
      strip_params: '[]',
    });
    expect(site.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(site.next_run_at).toBeGreaterThanOrEqual(before);
    expect(site.next_run_at).toBeLessThanOrEqual(after);
    expect(site.created_at).toBeGreaterThanOrEqual(before);
    expect(Object.keys(site).sort()).toEqual(
      [
        'id',
        'tenant_id',
        'hostname',
        'root_url',
        'cadence_minutes',
        'max_pages',
        'max_concurrency',
        'enabled',
        'last_run_at',
        'next_run_at',
        'created_at',
        'scanner_enabled',
        'a11y_enabled',
        'a11y_cadence_minutes',
        'a11y_next_run_at',
        'performance_enabled',
        'uptime_enabled',
        'seo_enabled',
        'fielddata_status',
        'fielddata_checked_at',
        'exclude_paths',
        'strip_params',
      ].sort(),
    );
    expect(await storedSite(site.id)).toMatchObject({
      hostname: 'example.com',
      next_run_at: site.next_run_at,
    });
  });

  it('takes every body field as given', async () => {
    await clearSites();
    const res = await create({
      rootUrl: 'http://shop.example.org:8080/',
      cadenceMinutes: 1440,
      maxPages: 100000,
      maxConcurrency: 50,
      scannerEnabled: false,
      a11yEnabled: true,
      seoEnabled: false,
      a11yCadenceMinutes: 2880,
      performanceEnabled: false,
      uptimeEnabled: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.site).toMatchObject({
      hostname: 'shop.example.org',
      root_url: 'http://shop.example.org:8080/',
      cadence_minutes: 1440,
      max_pages: 100000,
      max_concurrency: 50,
      scanner_enabled: 0,
      a11y_enabled: 1,
      seo_enabled: 0,
      a11y_cadence_minutes: 2880,
      performance_enabled: 0,
      uptime_enabled: 0,
      // Accessibility alone keeps the crawl scheduled.
      enabled: 1,
    });
    // The first crawl (due now) chains the accessibility pass; the standalone clock starts a cadence later.
    const site = res.body.site;
    expect(site.a11y_next_run_at).toBe(site.created_at + 2880 * MIN);
  });

  it('clamps maxConcurrency into [2, 200] instead of refusing it', async () => {
    await clearSites();
    expect((await newSite({ maxConcurrency: 1 })).max_concurrency).toBe(2);
    expect((await newSite({ maxConcurrency: -40 })).max_concurrency).toBe(2);
    expect((await newSite({ maxConcurrency: 500 })).max_concurrency).toBe(200);
    await clearSites();
  });

  it('defaults the accessibility cadence to monthly when the app is on', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    expect(site.a11y_cadence_minutes).toBe(43200);
    expect(site.a11y_next_run_at).toBe(site.created_at + 43200 * MIN);
  });

  it('leaves a site with neither crawl app unscheduled', async () => {
    await clearSites();
    const site = await newSite({ scannerEnabled: false, a11yEnabled: false });
    expect(site).toMatchObject({ enabled: 0, next_run_at: null, a11y_next_run_at: null, seo_enabled: 1 });
  });

  it('refuses out-of-bounds values with a 422 that names the field', async () => {
    await clearSites();
    const cases: [Record<string, unknown>, string][] = [
      [{ cadenceMinutes: 1439 }, 'cadenceMinutes: must be at least 1440'],
      [{ a11yCadenceMinutes: 60 }, 'a11yCadenceMinutes: must be at least 1440'],
      [{ cadenceMinutes: 1440.5 }, 'cadenceMinutes: must be a whole number'],
      [{ maxPages: 0 }, 'maxPages: must be at least 1'],
      [{ maxPages: 100001 }, 'maxPages: must be at most 100000'],
      [{ maxConcurrency: 'ten' }, 'maxConcurrency: must be a whole number'],
      [{ scannerEnabled: 'yes' }, 'scannerEnabled: must be true or false'],
    ];
    for (const [fields, message] of cases) {
      const res = await createUnchecked({ rootUrl: 'https://bounds.example.com', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      const split = message.indexOf(': ');
      const issue = { field: message.slice(0, split), message: message.slice(split + 2) };
      expect(res.body).toEqual({ error: message, issues: [issue] });
    }
    expect(await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId))).toHaveLength(0);
  });

  it('requires rootUrl and accepts only http(s) URLs', async () => {
    const missing = await createUnchecked({ cadenceMinutes: 1440 });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatch(/^rootUrl: /);
    expect(missing.body.error).toBe('rootUrl: is required');

    const ftp = await create({ rootUrl: 'ftp://files.example.com/' });
    expect(ftp.status).toBe(422);
    expect(ftp.body.error).toBe('rootUrl: must use http or https, not ftp');

    for (const rootUrl of ['example.com', 'not a url', '', 'https://user:pw@example.com/', 42]) {
      const res = await createUnchecked({ rootUrl });
      expect(res.status, String(rootUrl)).toBe(422);
      expect(res.body.error).toMatch(/^rootUrl: /);
    }
  });

  it('answers 400 to malformed JSON and 422 to unknown fields', async () => {
    const bad = await createUnchecked('{"rootUrl": "https://example.com"');
    expect(bad).toMatchObject({ status: 400, body: { error: 'malformed JSON body' } });
    const unknown = await createUnchecked({ rootUrl: 'https://example.com', cadence: 1440 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatch(/cadence/);
  });

  it('lists every problem of a body in one 422, each with its field, unknown fields named, and saves nothing', async () => {
    await clearSites();
    const res = await createUnchecked({ rootUrl: 'ftp://example.com', maxPages: 0, colour: 'red', shade: 1 });
    expect(res.status).toBe(422);
    expect(res.body.issues).toEqual([
      { field: 'rootUrl', message: 'must use http or https, not ftp' },
      { field: 'maxPages', message: 'must be at least 1' },
      { field: 'colour', message: 'is not a field of this request (unknown field)' },
      { field: 'shade', message: 'is not a field of this request (unknown field)' },
    ]);
    expect(res.body.error).toBe(
      'rootUrl: must use http or https, not ftp; maxPages: must be at least 1; colour: is not a field of this request (unknown field); shade: is not a field of this request (unknown field)',
    );
    expect(await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId))).toEqual([]);
    // A service's refusal of one field has the same shape.
    const site = await newSite({ cadenceMinutes: 1440 });
    const faster = await patch(site.id, { cadenceMinutes: 90 });
    expect(faster.body).toEqual({
      error: 'cadenceMinutes: must be at least 1440',
      issues: [{ field: 'cadenceMinutes', message: 'must be at least 1440' }],
    });
  });

  it('refuses a root URL the organization already registered with a 409 naming the site, and writes nothing', async () => {
    await clearSites();
    const first = await create({ rootUrl: 'https://twice.example.com/' });
    expect(first.status).toBe(201);
    // The same URL spelled differently is the same normalized root URL.
    const again = await create({ rootUrl: 'HTTPS://Twice.Example.com:443/#top' });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain(first.body.site.id);
    expect(again.body.error).toContain('rootUrl');
    const rows = await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId));
    expect(rows.map((r) => r.id)).toEqual([first.body.site.id]);
    // Another path on the same host is another site.
    expect((await create({ rootUrl: 'https://twice.example.com/blog/' })).status).toBe(201);
  });

  it('needs a credential', async () => {
    const res = await v1().POST('/v1/sites', { body: { rootUrl: 'https://a.example' } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/missing credentials/);
  });
});

describe('GET /v1/sites', () => {
  it('lists the tenant sites oldest first with the quota', async () => {
    await clearSites();
    const a = await newSite();
    const b = await newSite({ a11yEnabled: true });
    const res = await v1({ token: owner.token }).GET('/v1/sites');
    expect(res.status).toBe(200);
    expect(res.body.sites.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    expect(res.body.sites[1]).toEqual(b);
    expect(res.body.quota).toEqual({ count: 2, included: 3, overageEnabled: false });
  });

  it('answers 401 without a credential and with a bad session', async () => {
    expect((await v1().GET('/v1/sites')).status).toBe(401);
    const bad = await v1({ token: 'not-a-session' }).GET('/v1/sites');
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: expect.stringMatching(/session/) });
  });
});

describe('PATCH /v1/sites/{id}', () => {
  it('keeps omitted fields and changes the given ones, including the crawl boundary', async () => {
    await clearSites();
    const site = await newSite({ cadenceMinutes: 2880 });
    const res = await patch(site.id, {
      rootUrl: 'https://www.Other.example/',
      seoEnabled: false,
      performanceEnabled: false,
      uptimeEnabled: false,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['site']);
    expect(res.body.site).toEqual({
      ...site,
      root_url: 'https://www.other.example/',
      hostname: 'www.other.example',
      seo_enabled: 0,
      performance_enabled: 0,
      uptime_enabled: 0,
    });
    expect(await storedSite(site.id)).toMatchObject({ hostname: 'www.other.example', seo_enabled: 0 });
    // An empty edit changes nothing.
    expect((await patch(site.id, {})).body.site).toEqual(res.body.site);
  });

  it("refuses to move a site onto another site's root URL with a 409, and keeps its own", async () => {
    await clearSites();
    const a = await newSite();
    const b = await newSite();
    const res = await patch(b.id, { rootUrl: a.root_url });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(a.id);
    expect((await storedSite(b.id)).root_url).toBe(b.root_url);
    // Saving a site with its own root URL is no conflict.
    expect((await patch(a.id, { rootUrl: a.root_url })).status).toBe(200);
  });

  it('refuses a non-http(s) rootUrl', async () => {
    const site = await newSite();
    const res = await patch(site.id, { rootUrl: 'ftp://example.com' });
    expect(res).toMatchObject({ status: 422, body: { error: 'rootUrl: must use http or https, not ftp' } });
    expect((await storedSite(site.id)).root_url).toBe(site.root_url);
  });

  it('holds both cadences to the 1440-minute floor', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    expect(await patch(site.id, { cadenceMinutes: 1439 })).toMatchObject({
      status: 422,
      body: { error: 'cadenceMinutes: must be at least 1440' },
    });
    expect(await patch(site.id, { a11yCadenceMinutes: 720 })).toMatchObject({
      status: 422,
      body: { error: 'a11yCadenceMinutes: must be at least 1440' },
    });
    const ok = await patch(site.id, { cadenceMinutes: 1440, a11yCadenceMinutes: 1440 });
    expect(ok.status).toBe(200);
    expect(ok.body.site).toMatchObject({ cadence_minutes: 1440, a11y_cadence_minutes: 1440 });
  });

  it('lets a site created below the floor keep or slow its cadence but not go more frequent', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    // A legacy row from before the floor existed.
    await db
      .update(sites)
      .set({ cadence_minutes: 60, a11y_cadence_minutes: 120 })
      .where(eq(sites.id, site.id));

    const faster = await patch(site.id, { cadenceMinutes: 30 });
    expect(faster.status).toBe(422);
    expect(faster.body.error).toMatch(
      /^cadenceMinutes: must be at least 1440, or at least this site's current 60/,
    );
    expect((await patch(site.id, { cadenceMinutes: 60 })).body.site.cadence_minutes).toBe(60);
    expect((await patch(site.id, { cadenceMinutes: 90 })).body.site.cadence_minutes).toBe(90);
    // Slowed to 90: 60 is now more frequent than the current cadence.
    expect((await patch(site.id, { cadenceMinutes: 60 })).status).toBe(422);
    expect((await patch(site.id, { cadenceMinutes: 1440 })).body.site.cadence_minutes).toBe(1440);
    expect((await patch(site.id, { cadenceMinutes: 90 })).body.error).toBe(
      'cadenceMinutes: must be at least 1440',
    );

    const a11yFaster = await patch(site.id, { a11yCadenceMinutes: 119 });
    expect(a11yFaster.status).toBe(422);
    expect(a11yFaster.body.error).toMatch(/^a11yCadenceMinutes: .*current 120/);
    expect((await patch(site.id, { a11yCadenceMinutes: 120 })).body.site.a11y_cadence_minutes).toBe(120);
    expect((await patch(site.id, { a11yCadenceMinutes: 600 })).body.site.a11y_cadence_minutes).toBe(600);
    expect((await patch(site.id, { a11yCadenceMinutes: 599 })).status).toBe(422);
  });

  it('recomputes the next crawl from the last run when the cadence changes', async () => {
    await clearSites();
    const site = await newSite();
    // Never ran: the first crawl is already due and stays so.
    const unchanged = await patch(site.id, { cadenceMinutes: 2880 });
    expect(unchanged.body.site.next_run_at).toBe(site.next_run_at);

    const lastRun = Date.now() - 3 * 24 * 60 * MIN;
    await db
      .update(sites)
      .set({ last_run_at: lastRun, next_run_at: lastRun + 2880 * MIN })
      .where(eq(sites.id, site.id));
    const res = await patch(site.id, { cadenceMinutes: 1440 });
    expect(res.body.site).toMatchObject({
      cadence_minutes: 1440,
      next_run_at: lastRun + 1440 * MIN,
      enabled: 1,
    });
    const slower = await patch(site.id, { cadenceMinutes: 20160 });
    expect(slower.body.site.next_run_at).toBe(lastRun + 20160 * MIN);
    // Same cadence: no change to the clock.
    await db.update(sites).set({ next_run_at: 123 }).where(eq(sites.id, site.id));
    expect((await patch(site.id, { cadenceMinutes: 20160 })).body.site.next_run_at).toBe(123);
  });

  it('unschedules only when both Broken Links and Accessibility are off, and reschedules on the first one back', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    const scannerOff = await patch(site.id, { scannerEnabled: false });
    expect(scannerOff.body.site).toMatchObject({
      scanner_enabled: 0,
      enabled: 1,
      next_run_at: site.next_run_at,
    });

    const bothOff = await patch(site.id, { a11yEnabled: false });
    expect(bothOff.body.site).toMatchObject({ enabled: 0, next_run_at: null, a11y_next_run_at: null });
    // The accessibility cadence stays stored for when the app comes back.
    expect(bothOff.body.site.a11y_cadence_minutes).toBe(43200);

    // Never ran: due at once.
    const before = Date.now();
    const on = await patch(site.id, { scannerEnabled: true });
    expect(on.body.site.enabled).toBe(1);
    expect(on.body.site.next_run_at).toBeGreaterThanOrEqual(before);
    expect(on.body.site.next_run_at).toBeLessThanOrEqual(Date.now());

    // Ran before: one cadence after the last run.
    await patch(site.id, { scannerEnabled: false });
    const lastRun = Date.now() - 60 * MIN;
    await db.update(sites).set({ last_run_at: lastRun }).where(eq(sites.id, site.id));
    const back = await patch(site.id, { scannerEnabled: true });
    expect(back.body.site).toMatchObject({ enabled: 1, next_run_at: lastRun + 10080 * MIN });

    // SEO alone does not schedule the crawl.
    const seoOnly = await patch(site.id, { scannerEnabled: false, seoEnabled: true });
    expect(seoOnly.body.site).toMatchObject({ enabled: 0, next_run_at: null, seo_enabled: 1 });
  });

  it('defaults the accessibility cadence to monthly when the app is newly enabled with none stored', async () => {
    await clearSites();
    const site = await newSite();
    expect(site.a11y_cadence_minutes).toBeNull();
    const before = Date.now();
    const on = await patch(site.id, { a11yEnabled: true });
    expect(on.body.site.a11y_cadence_minutes).toBe(43200);
    // Never crawled: the first crawl chains the pass, so the standalone scan is a cadence out.
    expect(on.body.site.a11y_next_run_at).toBeGreaterThanOrEqual(before + 43200 * MIN);
    expect(on.body.site.a11y_next_run_at).toBeLessThanOrEqual(Date.now() + 43200 * MIN);

    const off = await patch(site.id, { a11yEnabled: false });
    expect(off.body.site).toMatchObject({
      a11y_enabled: 0,
      a11y_next_run_at: null,
      a11y_cadence_minutes: 43200,
    });

    // A stored cadence is kept when the app comes back; a crawled site is scanned at once.
    await patch(site.id, { a11yCadenceMinutes: 2880 });
    await db
      .update(sites)
      .set({ last_run_at: Date.now() - MIN })
      .where(eq(sites.id, site.id));
    const t = Date.now();
    const again = await patch(site.id, { a11yEnabled: true });
    expect(again.body.site.a11y_cadence_minutes).toBe(2880);
    expect(again.body.site.a11y_next_run_at).toBeGreaterThanOrEqual(t);
    expect(again.body.site.a11y_next_run_at).toBeLessThanOrEqual(Date.now());
  });

  it('recomputes the accessibility clock from the last accessibility run when its cadence changes', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    const scannedAt = Date.now() - 5 * 24 * 60 * MIN;
    await db.insert(runs).values({
      site_id: site.id,
      tenant_id: owner.tenantId,
      started_at: scannedAt,
      finished_at: scannedAt + MIN,
      state: 'completed',
      kind: 'a11y',
    });
    const res = await patch(site.id, { a11yCadenceMinutes: 10080 });
    expect(res.body.site).toMatchObject({
      a11y_cadence_minutes: 10080,
      a11y_next_run_at: scannedAt + 10080 * MIN,
    });
  });

  it('refuses maxPages and maxConcurrency: they are set at creation only', async () => {
    const site = await newSite();
    for (const field of ['maxPages', 'maxConcurrency']) {
      const res = await patch(site.id, { [field]: 10 });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(`${field}: not editable: it is set when the site is created`);
    }
    expect(await storedSite(site.id)).toMatchObject({ max_pages: 5000, max_concurrency: 100 });
  });

  it('validates, trims and de-duplicates excludePaths and stripParams, at most 200 each', async () => {
    await clearSites();
    const site = await newSite();
    const ok = await patch(site.id, {
      excludePaths: ['/blog/**', ' *.pdf ', '/blog/**'],
      stripParams: ['utm_source', 'fbclid', 'utm_source'],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.site.exclude_paths).toBe('["/blog/**","*.pdf"]');
    expect(ok.body.site.strip_params).toBe('["utm_source","fbclid"]');

    const full = await patch(site.id, {
      excludePaths: Array.from({ length: 200 }, (_, i) => `/p${i}/**`),
      stripParams: Array.from({ length: 200 }, (_, i) => `p${i}`),
    });
    expect(full.status).toBe(200);
    expect(JSON.parse(full.body.site.exclude_paths)).toHaveLength(200);
    expect(JSON.parse(full.body.site.strip_params)).toHaveLength(200);

    const tooManyPaths = await patch(site.id, {
      excludePaths: Array.from({ length: 201 }, (_, i) => `/p${i}`),
    });
    expect(tooManyPaths).toMatchObject({
      status: 422,
      body: { error: 'excludePaths: must have at most 200 entries' },
    });
    const tooManyParams = await patch(site.id, {
      stripParams: Array.from({ length: 201 }, (_, i) => `p${i}`),
    });
    expect(tooManyParams).toMatchObject({
      status: 422,
      body: { error: 'stripParams: must have at most 200 entries' },
    });

    const badGlob = await patch(site.id, { excludePaths: ['/ok', 'https://example.com/x'] });
    expect(badGlob.status).toBe(422);
    expect(badGlob.body.error).toMatch(/^excludePaths\.1: must be a path pattern/);
    for (const bad of ['', 'a=b', 'a&b', 'utm source']) {
      const res = await patch(site.id, { stripParams: [bad] });
      expect(res.status, bad).toBe(422);
      expect(res.body.error).toMatch(/^stripParams\.0: /);
    }
    expect(
      (await unchecked('PATCH', `/v1/sites/${site.id}`, { stripParams: 'utm_source' })).body.error,
    ).toMatch(/^stripParams: /);
    // Nothing refused was stored.
    expect((await storedSite(site.id)).strip_params).toHaveLength(200);
  });

  it('answers 404 site not found for another tenant, an unknown id and a malformed id', async () => {
    const site = await newSite();
    const stranger = await signInOwner(db, 'stranger@sites.test');
    for (const [id, token] of [
      [site.id, stranger.token],
      ['00000000-0000-4000-8000-000000000000', owner.token],
      ['not-a-uuid', owner.token],
    ] as const) {
      expect(await patch(id, { seoEnabled: false }, token)).toMatchObject({
        status: 404,
        body: { error: 'site not found' },
      });
      expect(await status(id, token)).toMatchObject({ status: 404, body: { error: 'site not found' } });
      expect(await remove(id, token)).toMatchObject({ status: 404, body: { error: 'site not found' } });
    }
    expect((await storedSite(site.id)).seo_enabled).toBe(1);
  });

  it('answers 400 to malformed JSON', async () => {
    const site = await newSite();
    expect(await unchecked('PATCH', `/v1/sites/${site.id}`, '{"seoEnabled":')).toMatchObject({
      status: 400,
      body: { error: 'malformed JSON body' },
    });
  });
});

describe('GET /v1/sites/{id}/status', () => {
  it('is idle with no runs', async () => {
    await clearSites();
    const site = await newSite();
    const res = await status(site.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      site,
      live: {
        state: 'idle',
        runId: null,
        pagesCrawled: 0,
        linksChecked: 0,
        brokenCount: 0,
        inFlight: 0,
        pending: 0,
        window: 0,
      },
      a11yLive: { state: 'idle', runId: null, pagesRendered: 0, pagesTotal: 0 },
      latestRun: null,
      latestA11yRun: null,
    });
  });

  it('reports a running crawl live and the latest run of each kind', async () => {
    await clearSites();
    const site = await newSite({ a11yEnabled: true });
    const t = Date.now();
    await db.insert(runs).values([
      {
        site_id: site.id,
        tenant_id: owner.tenantId,
        started_at: t - 10 * MIN,
        finished_at: t - 9 * MIN,
        state: 'completed',
        kind: 'a11y',
        a11y_score: 91,
      },
      {
        site_id: site.id,
        tenant_id: owner.tenantId,
        started_at: t - 20 * MIN,
        finished_at: t - 15 * MIN,
        state: 'completed',
        kind: 'crawl',
        pages_crawled: 40,
      },
    ]);
    const [running] = await db
      .insert(runs)
      .values({
        site_id: site.id,
        tenant_id: owner.tenantId,
        started_at: t - MIN,
        state: 'running',
        kind: 'crawl',
        phase: 'crawling',
        window: 12,
        pages_crawled: 7,
        links_checked: 55,
        broken_count: 2,
      })
      .returning();
    const res = await status(site.id);
    expect(res.body.live).toEqual({
      state: 'crawling',
      runId: running!.id,
      pagesCrawled: 7,
      linksChecked: 55,
      brokenCount: 2,
      inFlight: 0,
      pending: 0,
      window: 12,
    });
    expect(res.body.latestRun).toMatchObject({
      id: running!.id,
      state: 'running',
      kind: 'crawl',
      finished_at: null,
    });
    // The Run resource carries no internal bookkeeping.
    expect(res.body.latestRun).not.toHaveProperty('phase');
    expect(res.body.latestRun).not.toHaveProperty('settings');
    expect(res.body.latestA11yRun).toMatchObject({ kind: 'a11y', state: 'completed', a11y_score: 91 });

    await db.update(runs).set({ phase: 'seeding' }).where(eq(runs.id, running!.id));
    expect((await status(site.id)).body.live.state).toBe('seeding');
    await db.update(runs).set({ state: 'completed', finished_at: t }).where(eq(runs.id, running!.id));
    expect((await status(site.id)).body.live).toMatchObject({ state: 'idle', runId: null });
  });
});

describe('DELETE /v1/sites/{id}', () => {
  it('deletes the site and its runs, keeps the usage ledger and frees the slot at once', async () => {
    await clearSites();
    const kept = [await newSite(), await newSite()];
    const doomed = await newSite();
    expect((await create({ rootUrl: 'https://fourth.example.com' })).status).toBe(403);
    const t = Date.now();
    const [run] = await db
      .insert(runs)
      .values({
        site_id: doomed.id,
        tenant_id: owner.tenantId,
        started_at: t,
        state: 'completed',
        kind: 'crawl',
      })
      .returning();
    await db.insert(usageLedger).values({
      tenant_id: owner.tenantId,
      site_id: doomed.id,
      hostname: doomed.hostname,
      run_id: run!.id,
      run_kind: 'crawl',
      billing_period: new Date(t).toISOString().slice(0, 7),
      pages_crawled: 10,
      created_at: t,
    });

    expect(await remove(doomed.id)).toEqual(
      expect.objectContaining({ status: 200, body: { deleted: true } }),
    );
    expect(await status(doomed.id)).toMatchObject({ status: 404, body: { error: 'site not found' } });
    expect(await remove(doomed.id)).toMatchObject({ status: 404, body: { error: 'site not found' } });
    expect(await db.select().from(runs).where(eq(runs.site_id, doomed.id))).toHaveLength(0);
    expect(await db.select().from(usageLedger).where(eq(usageLedger.site_id, doomed.id))).toHaveLength(1);

    const list = await v1({ token: owner.token }).GET('/v1/sites');
    expect(list.body.sites.map((s: { id: string }) => s.id)).toEqual(kept.map((s) => s.id));
    expect(list.body.quota.count).toBe(2);
    expect((await create({ rootUrl: 'https://fourth.example.com' })).status).toBe(201);
  });
});
