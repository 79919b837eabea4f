import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as confirmRoute from '@/app/status/[slug]/confirm/[token]/route';
import * as pageRoute from '@/app/status/[slug]/route';
import * as subscribeRoute from '@/app/status/[slug]/subscribe/route';
import * as unsubscribeRoute from '@/app/status/[slug]/unsubscribe/[token]/route';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  notificationConfirmationSends,
  notificationDeliveries,
  statusPageSubscribers,
  statusPages,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { SUBSCRIBE_LIMITS } from '@/lib/statuspages/subscribers';
import { queueMaintenanceStarts } from '@/lib/uptime/maintenance-windows';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { type Receiver, startResend } from '../support/notify-receivers';
import { nextRound, regionOutage, siteWithMonitorByApi } from '../support/uptime';

/*
 * Status page subscribers (issue 26 item 4), through the public routes with real Requests, the /v1
 * routes, a real round of probes and the Resend stand-in: a visitor subscribes with the page's form,
 * confirms with the mailed link's button (a POST), receives the page's incidents, updates,
 * resolutions and maintenance notices, each with RFC 8058 one-click unsubscribe, and after that
 * POST nothing more. The form's answer never says whether an address is subscribed; confirmation
 * mails are limited; the owner sees a count, never an address; another organization sees nothing.
 */

let db: Db;
let teardown: () => Promise<void>;
let resend: Receiver;
let target: TestServer;
let owner: { token: string; tenantId: string };
let other: { token: string; tenantId: string };
let monitorId: string;
let siteId: string;
let pageId: string;
const SLUG = 'acme-subscribe';
const { outage, probers } = regionOutage();
// The rounds run on the monitor's schedule, ahead of the wall clock: deliver as of an hour on.
const later = () => Date.now() + 3600_000;

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) as never });

/** The page's form as a browser posts it: form-encoded, no credential, no cookie. */
async function submit(email: string, slug = SLUG) {
  const res = await subscribeRoute.POST(
    new Request(`http://localhost:3000/status/${slug}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    }),
    ctx({ slug }),
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const mailsTo = (address: string) => resend.processed.filter((m) => (m.body.to as string[])[0] === address);

/** The confirmation link of the last confirmation mail to `address`: its path's token. */
function confirmLink(address: string): { slug: string; token: string } {
  const mail = mailsTo(address).filter((m) => String(m.body.subject).startsWith('Please confirm'));
  const match = String(mail.at(-1)?.body.text).match(/\/status\/([a-z0-9-]+)\/confirm\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no confirmation mail to ${address}`);
  return { slug: match[1]!, token: match[2]! };
}

const confirm = async (link: { slug: string; token: string }, method: 'GET' | 'POST') => {
  const res = await (method === 'GET' ? confirmRoute.GET : confirmRoute.POST)(
    new Request(`http://localhost:3000/status/${link.slug}/confirm/${link.token}`, { method }),
    ctx(link),
  );
  return { status: res.status, text: await res.text() };
};

async function deliver(now = later) {
  await dispatchEvents(db, { now });
  while ((await deliverDue(db, { now })).claimed > 0);
}

const pageView = async (token = owner.token, id = pageId) =>
  v1({ token }).GET('/v1/status-pages/{id}', { params: { path: { id } } });

/** As a mail client sends RFC 8058's one-click POST to the List-Unsubscribe URL. */
async function oneClick(url: string) {
  const { pathname } = new URL(url);
  const [, , slug, , token] = pathname.split('/');
  return unsubscribeRoute.POST(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    }),
    ctx({ slug: slug!, token: token! }),
  );
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  resend = await startResend();
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
  // Signed in while mail goes to the local outbox (the sign-in code is read there), then to Resend.
  owner = await signInOwner(db, 'owner@subscribers.test');
  other = await signInOwner(db, 'owner@other-subscribers.test');
  process.env.RESEND_API_KEY = 're_test_subscribers';
  process.env.RESEND_BASE_URL = resend.url;
  resetConfig();
  ({ siteId, monitorId } = await siteWithMonitorByApi(owner.token, 'subscribers.example', {
    url: target.url('/'),
    name: 'Checkout',
  }));
  const page = await v1({ token: owner.token }).POST('/v1/status-pages', {
    body: { slug: SLUG, title: 'Acme Status', monitorIds: [monitorId] },
  });
  expect(page.status, JSON.stringify(page.body)).toBe(201);
  pageId = page.body.statusPage.id;
  expect(page.body.statusPage.subscriberCount).toBe(0);
});

afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  resetConfig();
  await Promise.all([resend?.close(), target?.close()]);
  await closeDispatchers();
  await teardown();
});

describe('the public page', () => {
  it('carries a no-script form posting to its own origin, under a policy that allows only that', async () => {
    const res = await pageRoute.GET(new Request(`http://localhost:3000/status/${SLUG}`), ctx({ slug: SLUG }));
    const text = await res.text();
    expect(text).toContain(`<form method="post" action="/status/${SLUG}/subscribe">`);
    expect(text).toContain('<label for="email">Email address</label>');
    expect(text).not.toContain('<script');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
  });
});

describe('subscribe, confirm, receive, unsubscribe', () => {
  const VISITOR = 'Visitor@Example.test';
  const visitor = 'visitor@example.test';
  let unsubscribeUrl: string;

  it('a submitted address gets one confirmation mail and is not active until it confirms', async () => {
    const res = await submit(VISITOR);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Check your inbox');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const mails = mailsTo(visitor);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.subject).toBe('Please confirm: updates from the status page Acme Status');
    const link = confirmLink(visitor);
    // Stored normalized, with only the token's SHA-256.
    const [row] = await db
      .select()
      .from(statusPageSubscribers)
      .where(eq(statusPageSubscribers.status_page_id, pageId));
    expect(row).toMatchObject({ address: visitor, confirmed_at: null });
    expect(row!.confirm_token_hash).toBe(createHash('sha256').update(link.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(link.token);
    expect((await pageView()).body.statusPage.subscriberCount).toBe(0);
  });

  it('opening the link confirms nothing; its button (a POST) does, and twice answers the same', async () => {
    const link = confirmLink(visitor);
    const opened = await confirm(link, 'GET');
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('<form method="post"');
    expect(opened.text).toContain('>Confirm</button>');
    expect((await pageView()).body.statusPage.subscriberCount).toBe(0);
    const pressed = await confirm(link, 'POST');
    expect(pressed.status).toBe(200);
    expect(pressed.text).toContain('You are subscribed');
    expect((await confirm(link, 'POST')).text).toBe(pressed.text);
    expect((await pageView()).body.statusPage.subscriberCount).toBe(1);
  });

  it('a consensus incident of a listed monitor is mailed when it opens and when it resolves', async () => {
    outage.down = true;
    for (let i = 0; i < 3; i++) await nextRound(db, probers, monitorId);
    await deliver();
    const opened = mailsTo(visitor).filter((m) => String(m.body.subject).includes('Incident: Checkout'));
    expect(opened).toHaveLength(1);
    const mail = opened[0]!;
    const headers = mail.body.headers as Record<string, string>;
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    unsubscribeUrl = headers['List-Unsubscribe']!.slice(1, -1);
    expect(unsubscribeUrl).toMatch(new RegExp(`/status/${SLUG}/unsubscribe/`));
    expect(String(mail.body.text)).toContain(unsubscribeUrl);
    expect(String(mail.body.text)).toContain(`/status/${SLUG}`);
    // What the page shows and nothing of the organization's: no monitor URL, no dashboard link.
    expect(String(mail.body.html)).not.toContain(target.url('/'));
    expect(String(mail.body.text)).not.toContain('/sites/');

    outage.down = false;
    for (let i = 0; i < 4; i++) await nextRound(db, probers, monitorId);
    await deliver();
    expect(
      mailsTo(visitor).filter((m) => String(m.body.subject).includes('Resolved: Checkout')),
    ).toHaveLength(1);
    // Delivered again: deduplicated, nobody gets a mail twice.
    await deliver();
    expect(mailsTo(visitor).filter((m) => String(m.body.subject).includes('Checkout'))).toHaveLength(2);
  });

  it('manual incidents, their updates and resolutions, and maintenance are mailed; the log shows none', async () => {
    const api = v1({ token: owner.token });
    const opened = await api.POST('/v1/status-pages/{id}/incidents', {
      params: { path: { id: pageId } },
      body: { title: 'Slow logins', status: 'investigating', message: 'Looking into it.' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const incidentId = opened.body.incident.id;
    const update = (status: 'identified' | 'resolved', message: string) =>
      api.POST('/v1/status-pages/{id}/incidents/{incidentId}/updates', {
        params: { path: { id: pageId, incidentId } },
        body: { status, message },
      });
    expect((await update('identified', 'A bad deploy.')).status).toBe(201);
    expect((await update('resolved', 'Rolled back.')).status).toBe(201);
    const starts = Date.now() + 86_400_000;
    const window = await api.POST('/v1/sites/{id}/maintenance-windows', {
      params: { path: { id: siteId } },
      body: { title: 'Database upgrade', startsAt: starts, endsAt: starts + 3600_000 },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    await deliver();
    const subjects = mailsTo(visitor).map((m) => String(m.body.subject));
    expect(subjects).toEqual(
      expect.arrayContaining([
        'Acme Status: Incident: Slow logins',
        'Acme Status: Identified: Slow logins',
        'Acme Status: Resolved: Slow logins',
        'Acme Status: Maintenance scheduled: Database upgrade',
      ]),
    );
    // When it begins, the delivery job's run announces it once, however often it runs.
    expect(await queueMaintenanceStarts(db, starts - 1)).toBe(0);
    for (const at of [starts + 1000, starts + 61_000]) {
      expect(await queueMaintenanceStarts(db, at)).toBe(1);
      await deliver(() => at);
    }
    expect(
      mailsTo(visitor).filter(
        (m) => m.body.subject === 'Acme Status: Maintenance under way: Database upgrade',
      ),
    ).toHaveLength(1);
    const identified = mailsTo(visitor).find((m) => String(m.body.subject).includes('Identified'))!;
    expect(String(identified.body.text)).toContain('A bad deploy.');
    // The delivery log is the organization's: a subscriber's deliveries (their address) are not in it.
    const log = await api.GET('/v1/notifications/deliveries', {});
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).not.toContain(visitor);
  });

  it('a window moved or cancelled is news; a new title alone is not', async () => {
    const api = v1({ token: owner.token });
    const starts = Date.now() + 2 * 86_400_000;
    const created = await api.POST('/v1/sites/{id}/maintenance-windows', {
      params: { path: { id: siteId } },
      body: { title: 'Network change', startsAt: starts, endsAt: starts + 3600_000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const path = { id: siteId, windowId: created.body.maintenanceWindow.id };
    const edit = (body: { title?: string; startsAt?: number }) =>
      api.PATCH('/v1/sites/{id}/maintenance-windows/{windowId}', { params: { path }, body });
    expect((await edit({ startsAt: starts + 1800_000 })).status).toBe(200);
    expect((await edit({ title: 'Network change (core)' })).status).toBe(200);
    const removed = await api.DELETE('/v1/sites/{id}/maintenance-windows/{windowId}', { params: { path } });
    expect(removed.status).toBe(200);
    await deliver();
    await deliver();
    const about = mailsTo(visitor)
      .map((m) => String(m.body.subject))
      .filter((subject) => subject.includes('Network change'));
    expect(about).toEqual([
      'Acme Status: Maintenance scheduled: Network change',
      'Acme Status: Maintenance rescheduled: Network change',
      'Acme Status: Maintenance cancelled: Network change (core)',
    ]);
    const moved = mailsTo(visitor).find((m) => String(m.body.subject).includes('rescheduled'))!;
    expect(String(moved.body.text)).toContain('is now planned from');
  });

  it('the one-click POST unsubscribes: no more mail from the page, and the count drops', async () => {
    const shown = await unsubscribeRoute.GET(
      new Request(unsubscribeUrl),
      ctx({ slug: SLUG, token: unsubscribeUrl.split('/unsubscribe/')[1]! }),
    );
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('>Unsubscribe</button>');
    expect((await pageView()).body.statusPage.subscriberCount).toBe(1);
    const res = await oneClick(unsubscribeUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are unsubscribed');
    expect((await oneClick(unsubscribeUrl)).status).toBe(200);
    expect((await pageView()).body.statusPage.subscriberCount).toBe(0);
    expect(
      await db.select().from(statusPageSubscribers).where(eq(statusPageSubscribers.address, visitor)),
    ).toEqual([]);
    const before = mailsTo(visitor).length;
    const again = await v1({ token: owner.token }).POST('/v1/status-pages/{id}/incidents', {
      params: { path: { id: pageId } },
      body: { title: 'After unsubscribing', status: 'investigating', message: 'Nobody hears this.' },
    });
    expect(again.status).toBe(201);
    await deliver();
    expect(mailsTo(visitor)).toHaveLength(before);
  });

  it('a mail queued before the unsubscribe is cancelled, not sent', async () => {
    const late = 'late@example.test';
    await submit(late);
    await confirm(confirmLink(late), 'POST');
    await v1({ token: owner.token }).POST('/v1/status-pages/{id}/incidents', {
      params: { path: { id: pageId } },
      body: { title: 'Queued then stopped', status: 'investigating', message: 'x' },
    });
    await dispatchEvents(db, { now: later });
    await db.delete(statusPageSubscribers).where(eq(statusPageSubscribers.address, late));
    while ((await deliverDue(db, { now: later })).claimed > 0);
    expect(mailsTo(late).filter((m) => String(m.body.subject).includes('Queued then stopped'))).toEqual([]);
    const [delivery] = await db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.target, late));
    expect(delivery).toMatchObject({
      state: 'cancelled',
      last_outcome: 'not sent: no longer subscribed to the status page',
    });
  });
});

describe('the answer to the form', () => {
  it('is the same whether the address is new, pending, confirmed or over a limit', async () => {
    const fresh = await submit('fresh@example.test');
    const pending = await submit('fresh@example.test');
    await confirm(confirmLink('fresh@example.test'), 'POST');
    const confirmed = await submit('FRESH@example.test');
    expect(fresh.status).toBe(200);
    for (const res of [pending, confirmed]) {
      expect(res.status).toBe(fresh.status);
      expect(res.text).toBe(fresh.text);
    }
    // Pending within the cooldown and confirmed: no second mail.
    expect(mailsTo('fresh@example.test')).toHaveLength(1);
  });

  it('an address already subscribed is mailed that nothing changed, with its unsubscribe', async () => {
    const address = 'again@example.test';
    await submit(address);
    await confirm(confirmLink(address), 'POST');
    // Past the confirmation mail's cooldown.
    await db
      .update(notificationConfirmationSends)
      .set({ sent_at: Date.now() - SUBSCRIBE_LIMITS.addressCooldownMs - 60_000 })
      .where(eq(notificationConfirmationSends.address, address));
    const count = (await pageView()).body.statusPage.subscriberCount;
    const again = await submit(address);
    expect(again.status).toBe(200);
    expect(again.text).toBe((await submit('someone-new@example.test')).text);
    const note = mailsTo(address).at(-1)!;
    expect(note.body.subject).toBe('You are subscribed: updates from the status page Acme Status');
    const url = (note.body.headers as Record<string, string>)['List-Unsubscribe']!.slice(1, -1);
    expect(String(note.body.text)).toContain(url);
    expect((await oneClick(url)).status).toBe(200);
    expect((await pageView()).body.statusPage.subscriberCount).toBe(count - 1);
  });

  it('refuses a malformed address with the form again, storing nothing', async () => {
    const before = await db.select().from(statusPageSubscribers);
    const res = await submit('not an address');
    expect(res.status).toBe(422);
    expect(res.text).toContain('Enter an email address');
    expect(res.text).toContain('aria-invalid="true"');
    expect(await db.select().from(statusPageSubscribers)).toEqual(before);
  });

  it('is 404 for a page nobody published, and stores nothing', async () => {
    await v1({ token: owner.token }).POST('/v1/status-pages', {
      body: { slug: 'acme-draft', title: 'Draft', monitorIds: [monitorId], published: false },
    });
    const before = await db.select().from(statusPageSubscribers);
    expect((await submit('someone@example.test', 'acme-draft')).status).toBe(404);
    expect((await submit('someone@example.test', 'nobody-has-this')).status).toBe(404);
    expect(await db.select().from(statusPageSubscribers)).toEqual(before);
  });
});

describe('confirmation limits', () => {
  it('one address gets at most perAddress confirmation mails a day across pages', async () => {
    const api = v1({ token: owner.token });
    const address = 'flooded@example.test';
    const slugs: string[] = [];
    for (let i = 0; i <= SUBSCRIBE_LIMITS.perAddress; i++) {
      const slug = `flood-${i}`;
      const made = await api.POST('/v1/status-pages', {
        body: { slug, title: `Flood ${i}`, monitorIds: [monitorId] },
      });
      expect(made.status).toBe(201);
      slugs.push(slug);
    }
    const answers = new Set<string>();
    for (const slug of slugs)
      answers.add((await submit(address, slug)).text.replace(new RegExp(slug, 'g'), 'SLUG'));
    expect(mailsTo(address)).toHaveLength(SUBSCRIBE_LIMITS.perAddress);
    // The same answer whether the mail went or the limit held it back.
    expect(answers.size).toBe(1);
  });

  it('one page sends at most perSender confirmation mails a day', async () => {
    const [page] = await db.select().from(statusPages).where(eq(statusPages.slug, 'flood-0'));
    const now = Date.now();
    await db.insert(notificationConfirmationSends).values(
      Array.from({ length: SUBSCRIBE_LIMITS.perSender }, (_, i) => ({
        tenant_id: owner.tenantId,
        status_page_id: page!.id,
        address: `earlier-${i}@example.test`,
        sent_at: now - 60_000,
      })),
    );
    expect((await submit('one-more@example.test', 'flood-0')).status).toBe(200);
    expect(mailsTo('one-more@example.test')).toEqual([]);
  });
});

describe('tenancy and ownership', () => {
  it('another organization cannot read the page or its count; nobody can add addresses', async () => {
    expect((await pageView(other.token)).status).toBe(404);
    const list = await v1({ token: other.token }).GET('/v1/status-pages', {});
    expect(JSON.stringify(list.body)).not.toContain(pageId);
    const added = await v1({ token: owner.token }).raw({
      method: 'PATCH',
      path: `/v1/status-pages/${pageId}`,
      body: { subscribers: ['someone@example.test'] },
    });
    expect(added.status).toBe(422);
    const counted = await v1({ token: owner.token }).raw({
      method: 'PATCH',
      path: `/v1/status-pages/${pageId}`,
      body: { subscriberCount: 100 },
    });
    expect(counted.status).toBe(422);
  });

  it('deleting the page deletes its subscribers', async () => {
    const keeper = 'keeper@example.test';
    await submit(keeper);
    await confirm(confirmLink(keeper), 'POST');
    expect((await pageView()).body.statusPage.subscriberCount).toBeGreaterThan(0);
    const gone = await v1({ token: owner.token }).DELETE('/v1/status-pages/{id}', {
      params: { path: { id: pageId } },
    });
    expect(gone.status).toBe(200);
    expect(
      await db.select().from(statusPageSubscribers).where(eq(statusPageSubscribers.status_page_id, pageId)),
    ).toEqual([]);
  });
});
