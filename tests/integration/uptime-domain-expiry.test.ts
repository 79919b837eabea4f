import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setOverage } from '@/lib/billing/settings';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { domainRegistrations, notificationOutbox, rdapBootstrap, uptimeMonitors } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { buildMessage } from '@/lib/notify/message';
import { registrableDomain } from '@/lib/uptime/domain';
import { refreshDomainExpiry } from '@/lib/uptime/domain-expiry';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertMonitor, insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { outboxOf } from '../support/uptime';

/*
 * Issue 26 item 7, domain expiry through RDAP, against local stand-ins over real HTTP: IANA's
 * bootstrap file (RFC 9224) on 127.0.0.1, a registry's RDAP server answering RFC 9083 domain
 * objects on 127.0.0.2, and a hostile one on 127.0.0.3 (slow, huge, not JSON, 429). The scheduler
 * step (`refreshDomainExpiry`, what `refresh-domain-expiry` runs each minute; no timer, no module
 * state) is called on a clock of the test's own, days apart.
 */

const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 1);

let db: Db;
let teardown: () => Promise<void>;
let iana: TestServer;
let registry: TestServer;
let hostile: TestServer;
/** Another registry's server, on a host of its own: one that asks to come back later (429). */
let busy: TestServer;
let owner: { token: string; tenantId: string };
let other: { token: string; tenantId: string };
let ownerSite: string;
let otherSite: string;

/** The registry's records: domain → its expiry (null: a record with no expiration event). */
const records = new Map<string, number | null>();

function rdapDomain(name: string, expiresAt: number | null) {
  return {
    rdapConformance: ['rdap_level_0'],
    objectClassName: 'domain',
    handle: `${name.toUpperCase()}-REG`,
    ldhName: name,
    status: ['active'],
    events: [
      { eventAction: 'registration', eventDate: '2001-05-04T10:00:00Z' },
      ...(expiresAt === null
        ? []
        : [{ eventAction: 'expiration', eventDate: new Date(expiresAt).toISOString() }]),
      { eventAction: 'last update of RDAP database', eventDate: '2029-12-31T00:00:00Z' },
    ],
  };
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/rdap+json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const domainOf = (req: IncomingMessage) =>
  decodeURIComponent(/\/domain\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '');

beforeAll(async () => {
  registry = await startServer('127.0.0.2', {
    '*': (req, res) => {
      const name = domainOf(req);
      if (!records.has(name)) {
        return answer(res, 404, {
          errorCode: 404,
          title: 'Not Found',
          description: [`${name} is not registered`],
        });
      }
      answer(res, 200, rdapDomain(name, records.get(name) ?? null));
    },
  });
  hostile = await startServer('127.0.0.3', {
    '*': (req, res) => {
      const path = req.url ?? '';
      if (path.startsWith('/slow/')) {
        // Headers at once, then a byte now and then: never a whole answer.
        res.writeHead(200, { 'content-type': 'application/rdap+json' });
        res.write('{"objectClassName":"domain",');
        const drip = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(drip));
        return;
      }
      if (path.startsWith('/huge/')) {
        const events = Array.from({ length: 20_000 }, () => ({
          eventAction: 'transfer',
          eventDate: '2020-01-01T00:00:00Z',
        }));
        return answer(res, 200, { objectClassName: 'domain', events });
      }
      if (path.startsWith('/malformed/'))
        return answer(res, 200, '{"objectClassName":"domain","events":[{"eventAction":');
      answer(res, 404, {});
    },
  });
  busy = await startServer('127.0.0.4', {
    '*': (_req, res) =>
      answer(res, 429, { errorCode: 429, title: 'Too Many Requests' }, { 'retry-after': '7200' }),
  });
  iana = await startServer('127.0.0.1', {
    '/rdap/dns.json': {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        version: '1.0',
        publication: '2029-12-01T00:00:00Z',
        description: 'RDAP bootstrap file for Domain Name System registrations (test stand-in)',
        services: [
          [['com', 'shop'], [registry.url('/rdap/')]],
          [['uk'], ['ftp://not-rdap.invalid/', registry.url('/rdap/')]],
          [['net'], [hostile.url('/slow/')]],
          [['org'], [hostile.url('/huge/')]],
          [['info'], [hostile.url('/malformed/')]],
          [['dev'], [busy.url('/rdap/')]],
          'not an entry',
        ],
      }),
    },
  });
  process.env.RDAP_BOOTSTRAP_URL = iana.url('/rdap/dns.json');
  resetConfig();
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@domain-expiry.test');
  other = await signInOwner(db, 'owner@other-domain-expiry.test');
  await setOverage(db, owner.tenantId, true);
  await setOverage(db, other.tenantId, true);
  ownerSite = await insertSite(db, owner.tenantId, 'domain-expiry.example');
  otherSite = await insertSite(db, other.tenantId, 'other-domain-expiry.example');
});

afterAll(async () => {
  await Promise.all([iana?.close(), registry?.close(), hostile?.close(), busy?.close()]);
  await closeDispatchers();
  await teardown();
  delete process.env.RDAP_BOOTSTRAP_URL;
  resetConfig();
});

// Each case's monitors stop being watched with it: a later case reads only its own domains.
afterEach(async () => {
  await db.update(uptimeMonitors).set({ enabled: 0 });
});

/** A watched http monitor of `url` for the owner (or `tenant`). */
const monitorOf = (url: string, tenant: 'owner' | 'other' = 'owner') =>
  tenant === 'owner'
    ? insertMonitor(db, owner.tenantId, ownerSite, { url })
    : insertMonitor(db, other.tenantId, otherSite, { url });

/** Stops monitors being watched (paused). */
const retire = (...ids: string[]) =>
  Promise.all(
    ids.map((id) => db.update(uptimeMonitors).set({ enabled: 0 }).where(eq(uptimeMonitors.id, id))),
  );

const registration = async (domain: string) =>
  (await db.select().from(domainRegistrations).where(eq(domainRegistrations.domain, domain)))[0];

const lookups = (server: TestServer, domain: string) =>
  server.requests.filter((r) => r.path.endsWith(`/domain/${domain}`)).length;

const domainWarnings = async (monitorId: string) =>
  (await outboxOf(db, monitorId)).filter((n) => n.kind === 'domain-expiring');

async function monitorResource(monitorId: string, token = owner.token, siteId = ownerSite) {
  const got = await v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: siteId, monitorId } },
  });
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body.monitor;
}

describe('the registrable domain', () => {
  it('is the eTLD+1 of the Public Suffix List, none for addresses and bare suffixes', () => {
    expect(registrableDomain('https://www.shop.example.com/health')).toBe('example.com');
    expect(registrableDomain('https://status.api.example.co.uk/')).toBe('example.co.uk');
    expect(registrableDomain('https://WWW.Example.ORG:8443/x')).toBe('example.org');
    expect(registrableDomain('https://bücher.example.de/')).toBe('example.de');
    expect(registrableDomain('https://xn--bcher-kva.de/')).toBe('xn--bcher-kva.de');
    expect(registrableDomain('http://203.0.113.5/')).toBeNull();
    expect(registrableDomain('http://[2001:db8::1]/')).toBeNull();
    expect(registrableDomain('https://co.uk/')).toBeNull();
  });
});

describe('reading the expiry', () => {
  it('finds the registry through the bootstrap, reads the expiration event, and caches both for a day', async () => {
    const expires = T0 + 200 * DAY;
    records.set('alpha-shop.com', expires);
    records.set('beta-shop.co.uk', null);
    const www = await monitorOf('https://www.alpha-shop.com/');
    const status = await monitorOf('https://status.alpha-shop.com/health');
    const uk = await monitorOf('https://www.beta-shop.co.uk/');
    const ip = await monitorOf('http://203.0.113.5/');

    await refreshDomainExpiry(db, T0);
    expect(iana.hits('/rdap/dns.json')).toBe(1);
    // One read per domain, whichever monitors share it.
    expect(lookups(registry, 'alpha-shop.com')).toBe(1);
    expect(lookups(registry, 'beta-shop.co.uk')).toBe(1);
    expect(registry.requests.at(-1)?.headers.accept).toContain('application/rdap+json');

    const a = await monitorResource(www);
    expect(a).toMatchObject({
      domain: 'alpha-shop.com',
      domain_expiry_state: 'found',
      domain_expires_at: expires,
      domain_expiry_checked_at: T0,
      domain_expiry_note: null,
    });
    expect(await monitorResource(status)).toMatchObject({
      domain: 'alpha-shop.com',
      domain_expires_at: expires,
    });
    expect(await monitorResource(uk)).toMatchObject({
      domain: 'beta-shop.co.uk',
      domain_expiry_state: 'no_expiry',
      domain_expires_at: null,
    });
    expect(await monitorResource(ip)).toMatchObject({
      domain: null,
      domain_expiry_state: 'none',
      domain_expires_at: null,
    });

    // Within the day: neither file nor record is asked again.
    await refreshDomainExpiry(db, T0 + 23 * 3_600_000);
    expect(iana.hits('/rdap/dns.json')).toBe(1);
    expect(lookups(registry, 'alpha-shop.com')).toBe(1);
    // A day on, both are read again; a renewal shows.
    records.set('alpha-shop.com', expires + 365 * DAY);
    await refreshDomainExpiry(db, T0 + DAY + 60_000);
    expect(iana.hits('/rdap/dns.json')).toBe(2);
    expect(lookups(registry, 'alpha-shop.com')).toBe(2);
    expect((await monitorResource(status)).domain_expires_at).toBe(expires + 365 * DAY);
  });

  it('a changed URL is read under its new domain; a suffix with no RDAP server says so, not an error', async () => {
    records.set('gamma-shop.com', T0 + 90 * DAY);
    const id = await monitorOf('https://www.gamma-shop.com/');
    await refreshDomainExpiry(db, T0 + 2 * DAY);
    expect((await monitorResource(id)).domain).toBe('gamma-shop.com');

    await db
      .update(uptimeMonitors)
      .set({ url: 'https://www.gamma-shop.de/' })
      .where(eq(uptimeMonitors.id, id));
    // Until the next run derives it, the monitor says its domain is not read yet.
    expect(await monitorResource(id)).toMatchObject({
      domain: 'gamma-shop.de',
      domain_expiry_state: 'pending',
      domain_expires_at: null,
    });
    await refreshDomainExpiry(db, T0 + 2 * DAY + 60_000);
    const de = await monitorResource(id);
    expect(de).toMatchObject({
      domain: 'gamma-shop.de',
      domain_expiry_state: 'no_rdap',
      domain_expires_at: null,
    });
    expect(de.domain_expiry_note).toMatch(/\.de has no RDAP server/);
    expect(registry.requests.some((r) => r.path.includes('gamma-shop.de'))).toBe(false);
  });
});

describe('a hostile RDAP server', () => {
  it('slow, huge, not JSON or rate limiting: each a failure in words, retried later, never fatal', async () => {
    records.set('fine-shop.com', T0 + 300 * DAY);
    const ids = {
      slow: await monitorOf('https://www.drip.net/'),
      huge: await monitorOf('https://www.huge.org/'),
      malformed: await monitorOf('https://www.broken.info/'),
      limited: await monitorOf('https://www.busy.dev/'),
      fine: await monitorOf('https://www.fine-shop.com/'),
    };
    const at = T0 + 3 * DAY;
    const started = performance.now();
    await refreshDomainExpiry(db, at, { timeoutMs: 1_500 });
    // The drip is cut at the deadline: the run does not wait on it.
    expect(performance.now() - started).toBeLessThan(10_000);

    // The good domain in the same run is read as if nothing happened.
    expect(await monitorResource(ids.fine)).toMatchObject({
      domain_expiry_state: 'found',
      domain_expires_at: T0 + 300 * DAY,
    });
    const slow = await registration('drip.net');
    expect(slow).toMatchObject({
      state: 'failed',
      failures: 1,
      next_check_at: at + 3_600_000,
      lease_until: null,
    });
    expect(slow?.note).toMatch(/timed out|deadline|time/i);
    expect((await registration('huge.org'))?.note).toMatch(/large|bytes|MiB|KiB|cap/i);
    expect((await registration('broken.info'))?.note).toMatch(/not JSON/);
    const limited = await registration('busy.dev');
    expect(limited).toMatchObject({ state: 'failed', next_check_at: at + 7_200_000 });
    expect(limited?.note).toMatch(/429/);
    expect(await monitorResource(ids.malformed)).toMatchObject({
      domain_expiry_state: 'failed',
      domain_expires_at: null,
    });
    expect((await monitorResource(ids.malformed)).domain_expiry_note).toMatch(/^The latest read failed: /);

    const asked = (path: string) => hostile.requests.filter((r) => r.path.startsWith(path)).length;
    expect([asked('/slow/'), asked('/huge/'), asked('/malformed/'), busy.requests.length]).toEqual([
      1, 1, 1, 1,
    ]);
    // An hour on: the failures are tried again (backoff 1 h), the 429 is not (it asked for 2 h).
    await refreshDomainExpiry(db, at + 3_600_000 + 60_000, { timeoutMs: 1_500 });
    expect([asked('/slow/'), asked('/huge/'), asked('/malformed/'), busy.requests.length]).toEqual([
      2, 2, 2, 1,
    ]);
    expect((await registration('broken.info'))?.next_check_at).toBe(at + 3_600_000 + 60_000 + 2 * 3_600_000);
    await refreshDomainExpiry(db, at + 7_200_000 + 60_000, { timeoutMs: 1_500 });
    expect(busy.requests.length).toBe(2);
  });
});

describe('warnings', () => {
  it('30, 14 and 7 days ahead, once each per expiry date; a renewal starts them over', async () => {
    const expires = T0 + 100 * DAY;
    records.set('delta-shop.com', expires);
    const mine = await monitorOf('https://www.delta-shop.com/');
    // Another organization watching the same domain is warned on its own, and only it sees its warnings.
    const theirs = await monitorOf('https://shop.delta-shop.com/', 'other');

    const runAt = async (t: number) => refreshDomainExpiry(db, t);
    const days = async (id: string) =>
      (await domainWarnings(id)).map((n) => (n.payload as { days: number }).days);

    await runAt(T0 + 10 * DAY);
    expect(await days(mine)).toEqual([]);
    const d30 = expires - 30 * DAY + 60_000;
    await runAt(d30);
    await runAt(d30 + 60_000);
    expect(await days(mine)).toEqual([30]);
    await runAt(expires - 20 * DAY);
    expect(await days(mine)).toEqual([30]);
    await runAt(expires - 14 * DAY + 60_000);
    await runAt(expires - 13 * DAY);
    expect(await days(mine)).toEqual([30, 14]);
    await runAt(expires - 7 * DAY + 60_000);
    await Promise.all([runAt(expires - 6 * DAY), runAt(expires - 6 * DAY)]);
    expect(await days(mine)).toEqual([30, 14, 7]);
    expect(await days(theirs)).toEqual([30, 14, 7]);

    const [first] = await domainWarnings(mine);
    expect(first).toMatchObject({ tenant_id: owner.tenantId, site_id: ownerSite, kind: 'domain-expiring' });
    expect(first?.payload).toMatchObject({
      monitorId: mine,
      url: 'https://www.delta-shop.com/',
      domain: 'delta-shop.com',
      expiresAt: expires,
      days: 30,
    });
    const theirRows = await db
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.tenant_id, other.tenantId));
    expect(theirRows.every((n) => (n.payload as { monitorId: string }).monitorId === theirs)).toBe(true);
    const message = buildMessage(
      'domain-expiring',
      first!.payload as never,
      {
        appUrl: 'https://sitewatch.test',
        eventId: first!.id,
        occurredAt: d30,
        organizationName: 'Delta',
        site: { id: ownerSite, hostname: 'domain-expiry.example' },
      } as never,
    );
    expect(message.title).toBe('Domain delta-shop.com expires within 30 days');
    expect(message.type).toBe('uptime.domain_expiring');

    // Renewed for a year: the registry's new date resets the warnings, which come again before it.
    const renewed = expires + 365 * DAY;
    records.set('delta-shop.com', renewed);
    await runAt(expires - 5 * DAY);
    expect((await monitorResource(mine)).domain_expires_at).toBe(renewed);
    expect(await days(mine)).toEqual([30, 14, 7]);
    await runAt(renewed - 30 * DAY + 60_000);
    expect(await days(mine)).toEqual([30, 14, 7, 30]);
  });

  it('first seen inside 14 days: one warning, the urgent one; a paused monitor is not warned', async () => {
    const at = T0 + 500 * DAY;
    records.set('epsilon-shop.com', at + 10 * DAY);
    records.set('zeta-shop.com', at + 10 * DAY);
    const late = await monitorOf('https://www.epsilon-shop.com/');
    const paused = await monitorOf('https://www.zeta-shop.com/');
    await retire(paused);
    await refreshDomainExpiry(db, at);
    expect((await domainWarnings(late)).map((n) => (n.payload as { days: number }).days)).toEqual([14]);
    expect(await domainWarnings(paused)).toEqual([]);
    await refreshDomainExpiry(db, at + 3 * DAY + 60_000);
    expect((await domainWarnings(late)).map((n) => (n.payload as { days: number }).days)).toEqual([14, 7]);
  });
});

describe('fairness', () => {
  it('a tenant with many due domains does not hold back another with one', async () => {
    const at = T0 + 700 * DAY;
    const many = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        records.set(`many-${i}.com`, at + 400 * DAY);
        return monitorOf(`https://www.many-${i}.com/`);
      }),
    );
    records.set('single-shop.com', at + 400 * DAY);
    await monitorOf('https://www.single-shop.com/', 'other');
    await refreshDomainExpiry(db, at, { batch: 2 });
    expect(lookups(registry, 'single-shop.com')).toBe(1);
    expect(many.length).toBe(6);
    const readMany = Array.from({ length: 6 }, (_, i) => lookups(registry, `many-${i}.com`)).reduce(
      (a, b) => a + b,
    );
    expect(readMany).toBe(1);
  });
});

describe('the bootstrap cache', () => {
  it('a failed read keeps the copy in hand and is tried again within the hour', async () => {
    const [before] = await db.select().from(rdapBootstrap);
    expect(Object.keys(before?.services ?? {})).toContain('com');
    iana.route('/rdap/dns.json', { status: 503, body: 'down for maintenance' });
    records.set('eta-shop.com', T0 + 2000 * DAY);
    const id = await monitorOf('https://www.eta-shop.com/');
    const at = T0 + 900 * DAY;
    await refreshDomainExpiry(db, at);
    expect((await monitorResource(id)).domain_expires_at).toBe(T0 + 2000 * DAY);
    const [after] = await db.select().from(rdapBootstrap);
    expect(after).toMatchObject({ error: expect.stringMatching(/503/), next_fetch_at: at + 3_600_000 });
    expect(after?.services).toEqual(before?.services);
  });
});
