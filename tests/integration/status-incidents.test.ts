import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as feedRoute from '@/app/status/[slug]/feed.atom/route';
import * as pageRoute from '@/app/status/[slug]/route';
import * as summaryRoute from '@/app/status/[slug]/summary.json/route';
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
 * Incident updates and manual incidents on a status page (issue 26 item 2): posted through the API,
 * shown on the page, in summary.json and in the feed; the probes stay the truth of a monitor's
 * incident (no `resolved` while it fails, its recovery resolves it); a manual incident raises the
 * headline to its impact until an update resolves it; an incident the page does not show is 404.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let other: { token: string; tenantId: string };
let pageId: string;
let otherPageId: string;
let listed: string;
let unlisted: string;
let ongoing: string;
let unlistedIncident: string;

const publicGet = async (route: typeof pageRoute, file = '') => {
  // A change shows once this process's fingerprint memo has aged out.
  await new Promise((resolve) => setTimeout(resolve, FINGERPRINT_FRESH_MS + 50));
  const res = await route.GET(new Request(`${BASE}/status/acme-incidents${file}`), {
    params: Promise.resolve({ slug: 'acme-incidents' }),
  });
  return res.text();
};

type UpdateBody = RequestBody<'/v1/status-pages/{id}/incidents/{incidentId}/updates', 'post'>;

const open = (
  body: RequestBody<'/v1/status-pages/{id}/incidents', 'post'>,
  page = pageId,
  token = owner.token,
) => v1({ token }).POST('/v1/status-pages/{id}/incidents', { params: { path: { id: page } }, body });

const update = (incidentId: string, body: UpdateBody, page = pageId, token = owner.token) =>
  v1({ token }).POST('/v1/status-pages/{id}/incidents/{incidentId}/updates', {
    params: { path: { id: page, incidentId } },
    body,
  });

/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const openUnchecked = (body: unknown) =>
  v1({ token: owner.token }).raw({ method: 'POST', path: `/v1/status-pages/${pageId}/incidents`, body });
const updateUnchecked = (incidentId: string, body: unknown) =>
  v1({ token: owner.token }).raw({
    method: 'POST',
    path: `/v1/status-pages/${pageId}/incidents/${incidentId}/updates`,
    body,
  });

const listIncidents = (page: string) =>
  v1({ token: owner.token }).GET('/v1/status-pages/{id}/incidents', { params: { path: { id: page } } });

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@incidents.test');
  other = await signInOwner(db, 'owner@other-incidents.test');
  const site = await insertSite(db, owner.tenantId, 'incidents.example');
  const now = Date.now();
  listed = await insertMonitor(db, owner.tenantId, site, {
    name: 'Checkout',
    status: 'down',
    status_since: now - 600_000,
    created_at: now - 10 * DAY_MS,
  });
  unlisted = await insertMonitor(db, owner.tenantId, site, { name: 'Back office' });
  const [a, b] = await db
    .insert(uptimeIncidents)
    .values([
      {
        tenant_id: owner.tenantId,
        monitor_id: listed,
        down_at: now - 600_000,
        cause: 'http_5xx',
        created_at: now,
      },
      {
        tenant_id: owner.tenantId,
        monitor_id: unlisted,
        down_at: now - 60_000,
        cause: 'dns',
        created_at: now,
      },
    ])
    .returning({ id: uptimeIncidents.id });
  ongoing = a!.id;
  unlistedIncident = b!.id;
  const made = await v1({ token: owner.token }).POST('/v1/status-pages', {
    body: { slug: 'acme-incidents', title: 'Acme', monitorIds: [listed] },
  });
  pageId = made.body.statusPage.id;
  const second = await v1({ token: owner.token }).POST('/v1/status-pages', {
    body: { slug: 'acme-second', title: 'Second', monitorIds: [listed] },
  });
  otherPageId = second.body.statusPage.id;
  // Two sign-ins and two pages: on the embedded database of a loaded shared machine this can take
  // longer than the default hook time.
}, 180_000);
afterAll(() => teardown());

describe("updates on a monitor's incident", () => {
  it('are shown on the page, in summary.json and in the feed, newest first, escaped', async () => {
    const first = await update(ongoing, { status: 'investigating', message: 'Checkout answers 502.' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await update(ongoing, {
      status: 'identified',
      message: 'A bad <script>deploy</script>.\nRolling back.\n\nMore soon.',
    });
    expect(second.status).toBe(201);
    expect(second.body.incident).toMatchObject({
      id: ongoing,
      kind: 'monitor',
      title: 'Checkout: server error (5xx)',
      status: 'identified',
      impact: null,
      monitorId: listed,
      resolvedAt: null,
    });
    expect(second.body.incident.updates.map((u: { status: string }) => u.status)).toEqual([
      'identified',
      'investigating',
    ]);

    const html = await publicGet(pageRoute);
    expect(html).toContain('<p class="standing">Identified</p>');
    expect(html).toContain(
      'A bad &lt;script&gt;deploy&lt;/script&gt;.<br>Rolling back.</p><p>More soon.</p>',
    );
    expect(html).not.toContain('<script>');
    expect(html.indexOf('Identified</strong>')).toBeLessThan(html.indexOf('Investigating</strong>'));

    const summary = JSON.parse(await publicGet(summaryRoute, '/summary.json'));
    const shown = summary.incidents.find((i: { id: string }) => i.id === ongoing);
    expect(shown).toMatchObject({
      kind: 'monitor',
      status: 'identified',
      monitor: { position: 1, name: 'Checkout' },
    });
    expect(shown.updates[1]).toEqual({
      status: 'investigating',
      message: 'Checkout answers 502.',
      at: expect.any(Number),
    });
    // The page never says who posted, nor the organization's ids.
    expect(JSON.stringify(summary)).not.toContain(owner.tenantId);
    expect(JSON.stringify(summary)).not.toContain(listed);

    const feed = await publicGet(feedRoute, '/feed.atom');
    expect(feed).toContain('<content type="text">');
    expect(feed).toContain('Identified (');
    expect(feed).toContain('Checkout answers 502.');
  });

  it('belong to the page they were posted on', async () => {
    const list = await listIncidents(otherPageId);
    expect(list.status).toBe(200);
    expect(list.body.incidents).toHaveLength(1);
    expect(list.body.incidents[0]).toMatchObject({ id: ongoing, status: null, updates: [] });
  });

  it('may not call it resolved while the monitor fails; its recovery resolves it', async () => {
    const refused = await update(ongoing, { status: 'resolved', message: 'Fixed!' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/^status: the monitor is still failing/);
    const now = Date.now();
    await db
      .update(uptimeIncidents)
      .set({ recovered_at: now, closed_by: 'recovery' })
      .where(eq(uptimeIncidents.id, ongoing));
    await db
      .update(uptimeMonitors)
      .set({ status: 'up', status_since: now })
      .where(eq(uptimeMonitors.id, listed));
    const after = await update(ongoing, { status: 'resolved', message: 'Root cause: a bad deploy.' });
    expect(after.status).toBe(201);
    expect(after.body.incident).toMatchObject({ status: 'resolved', resolvedAt: now });
  });
});

describe('manual incidents', () => {
  it('open with their first update, raise the headline to their impact, and close when resolved', async () => {
    const opened = await open({
      title: 'Email delivery delayed',
      status: 'investigating',
      message: 'Our mail provider is slow.',
      impact: 'partial_outage',
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const incident = opened.body.incident;
    expect(incident).toMatchObject({
      kind: 'manual',
      title: 'Email delivery delayed',
      status: 'investigating',
      impact: 'partial_outage',
      monitorId: null,
      cause: null,
      resolvedAt: null,
    });
    let html = await publicGet(pageRoute);
    expect(html).toContain('<h2 id="overall">Partial outage</h2>');
    expect(html).toContain('<h3>Email delivery delayed</h3>');
    expect(html).toContain('Investigating · Partial outage');
    const summary = JSON.parse(await publicGet(summaryRoute, '/summary.json'));
    expect(summary.status).toBe('partial_outage');
    expect(summary.incidents[0]).toMatchObject({
      kind: 'manual',
      monitor: null,
      title: 'Email delivery delayed',
    });

    const resolved = await update(incident.id, { status: 'resolved', message: 'Mail flows again.' });
    expect(resolved.status).toBe(201);
    expect(resolved.body.incident.resolvedAt).toEqual(expect.any(Number));
    html = await publicGet(pageRoute);
    expect(html).toContain('<h2 id="overall">All systems operational</h2>');
    expect(html).toContain('Mail flows again.');

    // Resolved stays resolved: a follow-up may be posted, a new problem is a new incident.
    expect((await update(incident.id, { status: 'monitoring', message: 'again?' })).status).toBe(409);
    expect((await update(incident.id, { status: 'resolved', message: 'Post-mortem: ...' })).status).toBe(201);
  });

  it('defaults to a degraded impact; none leaves the headline', async () => {
    const plain = await open({ title: 'Slow search', status: 'identified', message: 'Index rebuild.' });
    expect(plain.body.incident.impact).toBe('degraded');
    expect(JSON.parse(await publicGet(summaryRoute, '/summary.json')).status).toBe('degraded');
    await update(plain.body.incident.id, { status: 'resolved', message: 'Done.' });
    const notice = await open({
      title: 'New status page',
      status: 'monitoring',
      message: 'Hi.',
      impact: 'none',
    });
    expect(notice.status).toBe(201);
    expect(JSON.parse(await publicGet(summaryRoute, '/summary.json')).status).toBe('operational');
  });

  it('are listed with the monitor incidents, newest first', async () => {
    const list = await listIncidents(pageId);
    expect(list.status).toBe(200);
    const kinds = list.body.incidents.map((i: { kind: string }) => i.kind);
    expect(kinds).toEqual(['manual', 'manual', 'manual', 'monitor']);
    const starts = list.body.incidents.map((i: { startedAt: number }) => i.startedAt);
    expect([...starts].sort((x, y) => y - x)).toEqual(starts);
  });
});

describe('what cannot be updated', () => {
  it('an incident the page does not show, or one of another page or organization, is 404', async () => {
    const body: UpdateBody = { status: 'identified', message: 'x' };
    expect((await update(unlistedIncident, body)).status).toBe(404);
    const onSecond = await open(
      { title: 'Second page only', status: 'investigating', message: 'x' },
      otherPageId,
    );
    expect((await update(onSecond.body.incident.id, body)).status).toBe(404);
    expect((await update('not-a-uuid', body)).status).toBe(404);
    expect((await update('00000000-0000-4000-8000-000000000000', body)).status).toBe(404);
    // Another organization's own page, naming this organization's incidents.
    const theirs = await v1({ token: other.token }).POST('/v1/status-pages', {
      body: {
        slug: 'other-incidents',
        title: 'Other',
        monitorIds: [
          await insertMonitor(db, other.tenantId, await insertSite(db, other.tenantId, 'o.example')),
        ],
      },
    });
    const theirPage = theirs.body.statusPage.id;
    for (const id of [ongoing, onSecond.body.incident.id]) {
      const res = await update(id, body, theirPage, other.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'incident not found' });
    }
  });

  it('refuses a bad status, an empty or too long message, an unknown field', async () => {
    const bad = await updateUnchecked(ongoing, { status: 'fixed', message: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toContain(
      'status: must be one of investigating, identified, monitoring, resolved',
    );
    expect(bad.body.error).toContain('message: must not be empty');
    expect((await update(ongoing, { status: 'monitoring', message: 'x'.repeat(5001) })).status).toBe(422);
    expect(
      (await openUnchecked({ title: '', status: 'investigating', message: 'x', colour: 'red' })).status,
    ).toBe(422);
    expect(
      (await openUnchecked({ title: 'x', status: 'investigating', message: 'x', impact: 'total' })).status,
    ).toBe(422);
  });
});
