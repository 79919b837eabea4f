import { eq } from 'drizzle-orm';
import { Parser } from 'htmlparser2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as badgeRoute from '@/app/status/[slug]/badge.svg/route';
import * as feedRoute from '@/app/status/[slug]/feed.atom/route';
import * as pageRoute from '@/app/status/[slug]/route';
import * as summaryRoute from '@/app/status/[slug]/summary.json/route';
import { CACHE_CONTROL } from '@/lib/api/public-status';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { FINGERPRINT_FRESH_MS } from '@/lib/statuspages/cache';
import { DAY_MS } from '@/lib/uptime/rollup';
import { type RequestBody, v1 } from '../support/api-client';
import { BASE } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { insertMonitor, insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The public status page and its files (issue 26 items 1 and 8): what a page publishes (its listed
 * monitors, nothing else of the organization), the headers of a public surface (strict CSP, no
 * cookie, content types), the cache (ETag from the database's fingerprint, 304, a change shows at
 * once), the Atom feed's RFC 4287 shape, the badge, the rate limit and the 404s.
 */

type Route = { GET: (req: Request, ctx: { params: Promise<{ slug: string }> }) => Promise<Response> };
const ROUTES: Record<string, Route> = {
  '': pageRoute,
  '/summary.json': summaryRoute,
  '/feed.atom': feedRoute,
  '/badge.svg': badgeRoute,
};

const fetchPublic = async (slug: string, file = '', headers: Record<string, string> = {}) => {
  const res = await ROUTES[file]!.GET(new Request(`${BASE}/status/${slug}${file}`, { headers }), {
    params: Promise.resolve({ slug }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string; userId: string };
let listed: string;
let hidden: string;
let hiddenIncident: string;
let pageId: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@public-status.test');
  const site = await insertSite(db, owner.tenantId, 'secret-host.example');
  const now = Date.now();
  listed = await insertMonitor(db, owner.tenantId, site, {
    name: 'Checkout API',
    url: 'https://secret-host.example/private-health-path',
    status: 'up',
    status_since: now - 5 * DAY_MS,
    created_at: now - 40 * DAY_MS,
  });
  hidden = await insertMonitor(db, owner.tenantId, site, {
    name: 'Internal admin panel',
    url: 'https://secret-host.example/unlisted-admin',
    status: 'down',
    status_since: now - 3_600_000,
    created_at: now - 40 * DAY_MS,
  });
  // The listed monitor was down for 30 minutes three days ago; the unlisted one is down now.
  await db.insert(uptimeIncidents).values([
    {
      tenant_id: owner.tenantId,
      monitor_id: listed,
      down_at: now - 3 * DAY_MS,
      recovered_at: now - 3 * DAY_MS + 30 * 60_000,
      cause: 'timeout',
      created_at: now - 3 * DAY_MS,
      closed_by: 'recovery',
    },
  ]);
  const [h] = await db
    .insert(uptimeIncidents)
    .values({
      tenant_id: owner.tenantId,
      monitor_id: hidden,
      down_at: now - 3_600_000,
      cause: 'http_5xx',
      created_at: now,
    })
    .returning({ id: uptimeIncidents.id });
  hiddenIncident = h!.id;
  const made = await v1({ token: owner.token }).POST('/v1/status-pages', {
    body: { slug: 'acme-public', title: 'Acme <status>', description: 'Live & honest', monitorIds: [listed] },
  });
  expect(made.status).toBe(201);
  pageId = made.body.statusPage.id;
});
afterAll(() => teardown());
/** A change made straight in the database shows once this process's fingerprint memo has aged out. */
const pastFreshness = () => new Promise((resolve) => setTimeout(resolve, FINGERPRINT_FRESH_MS + 50));
afterEach(() => {
  delete process.env.RATE_LIMIT_STATUS_PAGE_PER_MINUTE;
  resetConfig();
});

const edit = async (body: RequestBody<'/v1/status-pages/{id}', 'patch'>) => {
  const res = await v1({ token: owner.token }).PATCH('/v1/status-pages/{id}', {
    params: { path: { id: pageId } },
    body,
  });
  await pastFreshness();
  return res;
};

describe('what a page publishes', () => {
  it('its listed monitors only: no other monitor, incident, URL, organization or member', async () => {
    for (const file of Object.keys(ROUTES)) {
      const res = await fetchPublic('acme-public', file);
      expect(res.status, file).toBe(200);
      for (const secret of [
        hidden,
        hiddenIncident,
        'Internal admin panel',
        'unlisted-admin',
        'private-health-path',
        'secret-host.example',
        owner.tenantId,
        owner.userId,
        'owner@public-status.test',
        listed,
      ]) {
        expect(res.text, `${file} mentions ${secret}`).not.toContain(secret);
      }
    }
  });

  it('shows the state, 90 day bars with their figures, and the incident, escaped', async () => {
    const { text } = await fetchPublic('acme-public');
    expect(text).toContain('Acme &lt;status&gt;');
    expect(text).not.toContain('Acme <status>');
    expect(text).toContain('Live &amp; honest');
    expect(text).toContain('All systems operational');
    expect(text).toContain('Checkout API');
    // 90 focusable days, each its one text (date, figure, incidents) and at most one class.
    const bars =
      /<ol class="bars" aria-label="Checkout API: daily uptime, last 90 days, (\d+ \w+ \d{4}) to (\d+ \w+ \d{4}), oldest first">(.*?)<\/ol>/s.exec(
        text,
      );
    expect(bars).not.toBeNull();
    const days = bars![3]!.match(/<li( class="(minor|major|none)")? tabindex="0"><span>[^<]+<\/span><\/li>/g);
    expect(days).toHaveLength(90);
    expect(bars![3]!.replace(/<li[^>]*><span>[^<]+<\/span><\/li>/g, '')).toBe('');
    expect(text.match(/tabindex="0"/g)).toHaveLength(90);
    // The first day is the label's first, today its last; a day without downtime says only that.
    const today = new Date();
    expect(bars![2]).toBe(
      `${today.getUTCDate()} ${today.toUTCString().slice(8, 11)} ${today.getUTCFullYear()}`,
    );
    expect(days![89]).toMatch(
      new RegExp(`<span>${today.getUTCDate()} ${today.toUTCString().slice(8, 11)}\n100% uptime</span>`),
    );
    // The day of the incident (under 99 %: major): 30 minutes of 24 hours down, when and why.
    expect(text).toMatch(
      /<li class="major" tabindex="0"><span>\d+ \w+\n97\.91% uptime\n1 incident, 30 min down\n\d\d:\d\d UTC: timed out<\/span><\/li>/,
    );
    expect(text).toContain('Checkout API: timed out');
    expect(text).not.toMatch(/<script/i);
  });

  it('summary.json carries the same: state, monitors with their days, incidents', async () => {
    const summary = JSON.parse((await fetchPublic('acme-public', '/summary.json')).text);
    expect(summary.status).toBe('operational');
    expect(summary.monitors).toHaveLength(1);
    expect(summary.monitors[0]).toMatchObject({ position: 1, name: 'Checkout API', url: null, status: 'up' });
    expect(summary.monitors[0].days).toHaveLength(90);
    expect(summary.monitors[0]).not.toHaveProperty('a11yScore');
    expect(summary.incidents).toHaveLength(1);
    expect(summary.incidents[0]).toMatchObject({
      monitor: { position: 1, name: 'Checkout API' },
      cause: 'timeout',
    });
  });

  it("shows a monitor's URL only when the owner chose to", async () => {
    expect((await edit({ showMonitorUrls: true })).status).toBe(200);
    expect((await fetchPublic('acme-public')).text).toContain('private-health-path');
    expect((await edit({ showMonitorUrls: false })).status).toBe(200);
    expect((await fetchPublic('acme-public')).text).not.toContain('private-health-path');
  });

  it('answers 404 for an unknown, malformed or unpublished slug, in every rendition', async () => {
    expect((await edit({ published: false })).status).toBe(200);
    for (const slug of ['acme-public', 'no-such-page', 'UPPER', '..', 'a'.repeat(300)]) {
      for (const file of Object.keys(ROUTES)) expect((await fetchPublic(slug, file)).status).toBe(404);
    }
    expect((await edit({ published: true })).status).toBe(200);
    expect((await fetchPublic('acme-public')).status).toBe(200);
  });
});

describe('a public surface', () => {
  it('sets no cookie, names its content type and a policy that allows no script', async () => {
    const types: Record<string, string> = {
      '': 'text/html; charset=utf-8',
      '/summary.json': 'application/json; charset=utf-8',
      '/feed.atom': 'application/atom+xml; charset=utf-8',
      '/badge.svg': 'image/svg+xml; charset=utf-8',
    };
    for (const [file, type] of Object.entries(types)) {
      const res = await fetchPublic('acme-public', file);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('set-cookie')).toBeNull();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/^default-src 'none'/);
      expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });

  it('the page style is the one the policy names by hash', async () => {
    const res = await fetchPublic('acme-public');
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(res.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
    expect(res.text.match(/<style/g)).toHaveLength(1);
    expect(res.text).not.toMatch(/ style="/);
  });

  it('the badge is an SVG without script or handlers', async () => {
    const res = await fetchPublic('acme-public', '/badge.svg');
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.text).toContain('operational');
    expect(res.text).not.toMatch(/<script|\son\w+=|href=|<style|<foreignObject/i);
  });

  it('is rate limited per client address', async () => {
    process.env.RATE_LIMIT_STATUS_PAGE_PER_MINUTE = '3';
    resetConfig();
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const from = (address: string) => fetchPublic('acme-public', '', { 'x-forwarded-for': address });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7')).status).toBe(200);
    const refused = await from('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).not.toContain('Checkout API');
    // Another visitor is not held back by the first; unknown slugs count too.
    expect((await from('198.51.100.8')).status).toBe(200);
    expect((await fetchPublic('nobody-here', '', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
  });
});

describe('the cache', () => {
  it('sends the page unencoded whatever the client accepts: the host compresses (Next, Vercel)', async () => {
    const plain = await fetchPublic('acme-public');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    for (const accept of ['gzip, deflate, br', '*', 'identity']) {
      const res = await pageRoute.GET(
        new Request(`${BASE}/status/acme-public`, { headers: { 'accept-encoding': accept } }),
        { params: Promise.resolve({ slug: 'acme-public' }) },
      );
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(await res.text()).toBe(plain.text);
    }
  });

  it('answers 304 to the current ETag, and a new ETag with new content within a second of a change', async () => {
    const first = await fetchPublic('acme-public');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+-html"$/);
    // Shared caches keep it a few seconds and serve it stale while they revalidate; browsers keep nothing.
    expect(first.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(CACHE_CONTROL).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    const again = await fetchPublic('acme-public');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(etag);
    const revalidated = await fetchPublic('acme-public', '', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');

    // A round that moves nothing shown (the last check) keeps the page.
    await db.update(uptimeMonitors).set({ last_checked_at: Date.now() }).where(eq(uptimeMonitors.id, listed));
    await pastFreshness();
    expect((await fetchPublic('acme-public', '', { 'if-none-match': etag })).status).toBe(304);

    // An incident opening on the listed monitor shows once the memo has aged out (a second).
    const now = Date.now();
    await db
      .update(uptimeMonitors)
      .set({ status: 'down', status_since: now })
      .where(eq(uptimeMonitors.id, listed));
    const [open] = await db
      .insert(uptimeIncidents)
      .values({
        tenant_id: owner.tenantId,
        monitor_id: listed,
        down_at: now,
        cause: 'http_5xx',
        created_at: now,
      })
      .returning({ id: uptimeIncidents.id });
    await pastFreshness();
    const down = await fetchPublic('acme-public', '', { 'if-none-match': etag });
    expect(down.status).toBe(200);
    expect(down.headers.get('etag')).not.toBe(etag);
    expect(down.text).toContain('Major outage');
    expect(down.text).toContain('Ongoing');
    expect((await fetchPublic('acme-public', '/badge.svg')).text).toContain('major outage');

    // Its recovery too, and an edit of the page.
    await db
      .update(uptimeIncidents)
      .set({ recovered_at: now + 60_000, closed_by: 'recovery' })
      .where(eq(uptimeIncidents.id, open!.id));
    await db
      .update(uptimeMonitors)
      .set({ status: 'up', status_since: now + 60_000 })
      .where(eq(uptimeMonitors.id, listed));
    await pastFreshness();
    const recovered = await fetchPublic('acme-public');
    expect(recovered.text).toContain('All systems operational');
    expect(recovered.text).not.toContain('Ongoing');
    expect((await edit({ title: 'Acme services' })).status).toBe(200);
    expect((await fetchPublic('acme-public')).text).toContain('<h1>Acme services</h1>');
  });
});

/** Elements as a tree, refusing markup that is not well-formed XML (unclosed or crossed tags). */
function parseXml(xml: string) {
  type Node = { name: string; attrs: Record<string, string>; children: Node[]; text: string };
  const root: Node = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: Node[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node = { name, attrs, children: [], text: '' };
        stack[stack.length - 1]!.children.push(node);
        stack.push(node);
      },
      ontext(text) {
        stack[stack.length - 1]!.text += text;
      },
      onclosetag(name) {
        const node = stack.pop();
        if (node?.name !== name) throw new Error(`</${name}> closes <${node?.name}>`);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(xml);
  parser.end();
  if (stack.length !== 1) throw new Error('unclosed elements');
  return root;
}

describe('the Atom feed', () => {
  it('is RFC 4287: a feed with id, title, updated, author, self link; each entry with id, title, updated', async () => {
    const res = await fetchPublic('acme-public', '/feed.atom');
    expect(res.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    const [feed] = parseXml(res.text).children;
    expect(feed!.name).toBe('feed');
    expect(feed!.attrs.xmlns).toBe('http://www.w3.org/2005/Atom');
    const child = (node: typeof feed, name: string) => node!.children.filter((c) => c.name === name);
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
    for (const name of ['id', 'title', 'updated', 'author']) expect(child(feed, name), name).toHaveLength(1);
    expect(child(feed, 'updated')[0]!.text).toMatch(rfc3339);
    expect(child(child(feed, 'author')[0], 'name')[0]!.text).toBe('Acme services');
    expect(
      child(feed, 'link')
        .map((l) => l.attrs.rel)
        .sort(),
    ).toEqual(['alternate', 'self']);
    const entries = child(feed, 'entry');
    expect(entries.length).toBeGreaterThanOrEqual(2);
    const ids = new Set<string>();
    for (const entry of entries) {
      for (const name of ['id', 'title', 'updated']) expect(child(entry, name), name).toHaveLength(1);
      expect(child(entry, 'id')[0]!.text).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(child(entry, 'updated')[0]!.text).toMatch(rfc3339);
      ids.add(child(entry, 'id')[0]!.text);
    }
    expect(ids.size).toBe(entries.length);
    expect(res.text).toContain('Checkout API: timed out (resolved)');
  });
});
