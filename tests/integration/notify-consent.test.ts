import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  mailMessages,
  notificationAddresses,
  notificationDeliveries,
  notificationOutbox,
  organizations,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import {
  CONFIRMATION_LIMITS,
  CONFIRMATION_TTL_MS,
  confirmationPreview,
  requestConfirmations,
} from '@/lib/notify/consent';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import type { Notification } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { emptySettings } from '@/lib/notify/settings';
import { MAIL_ORGANIZATION_NAME_CAP } from '@/lib/orgs/name';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';
import { confirmationToken } from '../support/mail-consent';
import { type Receiver, startResend } from '../support/notify-receivers';
import { monitorByApi } from '../support/uptime';

/*
 * Mail that protects its sender (issue 23, item 4), through the routes and the Resend stand-in:
 * an outside address gets one confirmation mail when saved and nothing else until it confirmed
 * with the page's POST; every notification mail carries RFC 8058 one-click unsubscribe in Resend's
 * `headers`, whose POST (no session) stops that topic for that address in that organization;
 * owners see pending and unsubscribed addresses and can resend or subscribe again; confirmation
 * mails are limited; the organization's name reaches mail escaped, on one line and capped.
 */

let db: Db;
let teardown: () => Promise<void>;
let resend: Receiver;
let owner: { token: string; userId: string; tenantId: string };
let siteId: string;
const MEMBER = 'member@consent.test';

const patchOrg = async (body: RequestBody<'/v1/notifications', 'patch'>) => {
  const res = await v1({ token: owner.token }).PATCH('/v1/notifications', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const { includeOrgDefaults: _flag, ...EMPTY_LISTS } = emptySettings();

const addressesOf = async () =>
  (await v1({ token: owner.token }).GET('/v1/notifications')).body.addresses as {
    email: string;
    status: string;
    unsubscribed: { topic: string }[];
  }[];

const mailsTo = (address: string) => resend.processed.filter((m) => (m.body.to as string[])[0] === address);

const confirm = (token: string) => v1().POST('/v1/confirm/{token}', { params: { path: { token } } });

/** As a mail client sends RFC 8058's one-click POST: form-encoded, no credential. */
const oneClick = (url: string) => {
  const token = url.split('/unsubscribe/')[1]!;
  return v1().raw({
    method: 'POST',
    path: `/v1/unsubscribe/${token}`,
    body: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
};

let queued = 0;
async function notify(kind: string, payload: object, now = Date.now()) {
  const dedupeKey = `consent:${kind}:${++queued}`;
  await enqueueNotification(db, {
    tenantId: owner.tenantId,
    siteId,
    ...({ kind, payload } as Notification),
    dedupeKey,
    now,
  });
  await dispatchEvents(db, { now: () => now });
  while ((await deliverDue(db, { now: () => now })).claimed > 0);
  const [event] = await db
    .select({ id: notificationOutbox.id })
    .from(notificationOutbox)
    .where(eq(notificationOutbox.dedupe_key, dedupeKey));
  return db.select().from(notificationDeliveries).where(eq(notificationDeliveries.event_id, event!.id));
}
const down = (now = Date.now()) =>
  notify('uptime-down', { monitorId: randomUUID(), url: 'https://consent.example/', downAt: now }, now);
const crawlSummary = () =>
  notify('crawl-summary', { runId: 'r', hostname: 'consent.example', state: 'completed', brokenCount: 0 });

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@consent.test');
  await addMember(db, { ownerToken: owner.token, tenantId: owner.tenantId, email: MEMBER, role: 'member' });
  resend = await startResend();
  process.env.RESEND_API_KEY = 're_test_consent';
  process.env.RESEND_BASE_URL = resend.url;
  resetConfig();
  const site = await v1({ token: owner.token }).POST('/v1/sites', {
    body: { rootUrl: 'https://consent.example/' },
  });
  siteId = site.body.site.id;
});

afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  resetConfig();
  await resend?.close();
  await closeDispatchers();
  await teardown();
});

describe('an address outside the organization', () => {
  it('is sent one confirmation when saved, and nothing else until it confirmed with a POST', async () => {
    const outsider = 'Oncall@Outside.test';
    await patchOrg({
      uptimeRecipients: [
        { kind: 'email', email: outsider },
        { kind: 'user', userId: owner.userId },
      ],
    });
    const asked = mailsTo('oncall@outside.test');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body.subject).toBe("Please confirm: notifications from owner's sites on Sitewatch");
    const token = await confirmationToken(db, 'oncall@outside.test');
    expect(asked[0]!.body.text).toContain(`/confirm/${token}`);
    expect(asked[0]!.body.html).toContain(`/confirm/${token}`);
    // Only the token's SHA-256 is stored.
    const [row] = await db
      .select()
      .from(notificationAddresses)
      .where(eq(notificationAddresses.address, 'oncall@outside.test'));
    expect(row!.confirm_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    // Saving the list again asks nothing again while the link is valid.
    await patchOrg({
      uptimeRecipients: [
        { kind: 'email', email: outsider },
        { kind: 'user', userId: owner.userId },
      ],
    });
    expect(mailsTo('oncall@outside.test')).toHaveLength(1);
    expect(await addressesOf()).toEqual([
      expect.objectContaining({ email: 'oncall@outside.test', status: 'pending', confirmationError: null }),
    ]);

    // An alert meanwhile: the member gets it, the outsider nothing, and the log says why.
    const before = resend.processed.length;
    const held = await down();
    const outsiderDelivery = held.find((d) => d.target === 'Oncall@Outside.test');
    expect(outsiderDelivery).toMatchObject({
      state: 'cancelled',
      last_outcome:
        'not sent: oncall@outside.test is not a member and has not confirmed that it wants mail from this organization',
    });
    expect(resend.processed.slice(before).map((m) => (m.body.to as string[])[0])).toEqual([
      'owner@consent.test',
    ]);

    // Opening the page reads and changes nothing (link scanners open links); the button's POST confirms.
    expect(await confirmationPreview(db, token)).toMatchObject({
      state: 'pending',
      email: 'oncall@outside.test',
    });
    expect(await confirmationPreview(db, token)).toMatchObject({ state: 'pending' });
    // A GET the document does not have, sent as it is.
    expect((await v1().raw({ path: `/v1/confirm/${token}` })).status).toBe(405);
    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      email: 'oncall@outside.test',
      organizationName: "owner's sites",
      confirmed: true,
    });
    expect((await confirm(token)).status).toBe(200);
    expect(await addressesOf()).toEqual([
      expect.objectContaining({ email: 'oncall@outside.test', status: 'confirmed' }),
    ]);

    const after = resend.processed.length;
    const sent = await down();
    expect(sent.map((d) => d.state)).toEqual(['sent', 'sent']);
    expect(
      resend.processed
        .slice(after)
        .map((m) => (m.body.to as string[])[0])
        .sort(),
    ).toEqual(['Oncall@Outside.test', 'owner@consent.test']);
  });

  it('refuses unknown and expired links, and a second confirmation replaces the first link', async () => {
    const now = Date.now();
    expect((await confirm('A'.repeat(43))).status).toBe(404);
    await requestConfirmations(db, owner.tenantId, ['late@outside.test'], now);
    const first = await confirmationToken(db, 'late@outside.test');
    const tooLate = await import('@/lib/notify/consent').then((m) =>
      m.confirmAddress(db, first, now + CONFIRMATION_TTL_MS + 1).catch((e: Error) => e.message),
    );
    expect(tooLate).toMatch(/expired/);
    // Within the cooldown a resend is 429 with Retry-After; after it, a new link replaces the old.
    await patchOrg({ crawlReportRecipients: [{ kind: 'email', email: 'late@outside.test' }] });
    const early = await v1({ token: owner.token }).POST('/v1/notifications/confirmations', {
      body: { email: 'late@outside.test' },
    });
    expect(early.status).toBe(429);
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(
      CONFIRMATION_LIMITS.addressCooldownMs / 1000,
    );
    const later = await import('@/lib/notify/consent').then((m) =>
      m.resendConfirmation(
        db,
        { tenantId: owner.tenantId, email: 'late@outside.test' },
        now + CONFIRMATION_LIMITS.addressCooldownMs + 1,
      ),
    );
    expect(later.address).toMatchObject({ status: 'pending', confirmationError: null });
    const second = await confirmationToken(db, 'late@outside.test');
    expect(second).not.toBe(first);
    expect((await confirm(first)).status).toBe(404);
    expect((await confirm(second)).status).toBe(200);
    // Resending to a confirmed or a member's address, or one no list names, is refused.
    const again = (email: string) =>
      v1({ token: owner.token }).POST('/v1/notifications/confirmations', { body: { email } });
    expect((await again('late@outside.test')).status).toBe(409);
    expect((await again(MEMBER)).status).toBe(409);
    expect((await again('nobody@outside.test')).status).toBe(404);
  });

  it('is asked when a monitor names it in alertEmails', async () => {
    await monitorByApi(owner.token, siteId, {
      url: 'https://consent.example/',
      alertEmails: ['pager@outside.test', MEMBER],
    });
    expect(mailsTo('pager@outside.test').map((m) => m.body.subject)).toEqual([
      "Please confirm: notifications from owner's sites on Sitewatch",
    ]);
    // A member's address is never asked.
    expect(mailsTo(MEMBER).filter((m) => String(m.body.subject).startsWith('Please confirm'))).toEqual([]);
    expect((await addressesOf()).map((a) => [a.email, a.status])).toContainEqual([
      'pager@outside.test',
      'pending',
    ]);
  });

  it('gets no test mail before it confirmed; a member gets one with an unsubscribe from everything', async () => {
    const before = resend.processed.length;
    const refused = await v1({ token: owner.token }).POST('/v1/notifications/test', {
      body: { email: 'stranger@elsewhere.test' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/^stranger@elsewhere\.test is not a member and has not confirmed/);
    expect(resend.processed.length).toBe(before);
    const ok = await v1({ token: owner.token }).POST('/v1/notifications/test', { body: { email: MEMBER } });
    expect(ok.status).toBe(200);
    const mail = resend.processed.at(-1)!;
    expect(mail.body.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(/^<http:\/\/localhost:\d+\/unsubscribe\/[\w.-]+>$/),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.body.text).toContain('Unsubscribe from all notifications');
  });
});

describe('one-click unsubscribe', () => {
  it('every notification mail carries it, in Resend headers and the stored copy; its POST stops that topic only', async () => {
    await patchOrg({
      ...EMPTY_LISTS,
      uptimeRecipients: [{ kind: 'user', userId: owner.userId }],
      crawlReportRecipients: [{ kind: 'user', userId: owner.userId }],
    });
    const before = resend.processed.length;
    await down();
    const mail = resend.processed.at(-1)!;
    expect(resend.processed.length).toBe(before + 1);
    const headers = mail.body.headers as Record<string, string>;
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = headers['List-Unsubscribe']!.slice(1, -1);
    expect(url).toMatch(/\/unsubscribe\//);
    expect(mail.body.html).toContain(`href="${url}"`);
    expect(mail.body.text).toContain('Unsubscribe from uptime alerts');
    // The local copy records the headers too.
    const [stored] = await db
      .select({ headers: mailMessages.headers })
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.to, 'owner@consent.test'),
          eq(mailMessages.provider_id, `resend-${resend.processed.length}`),
        ),
      );
    expect(stored?.headers).toEqual(headers);

    // A tampered token is 404 and changes nothing; the real one unsubscribes, with no session.
    expect((await oneClick(`${url}x`)).status).toBe(404);
    const res = await oneClick(url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ email: 'owner@consent.test', topic: 'uptime', unsubscribed: true });
    expect((await oneClick(url)).status).toBe(200);

    const held = await down();
    expect(held[0]).toMatchObject({
      state: 'cancelled',
      last_outcome: expect.stringMatching(
        /^not sent: owner@consent\.test unsubscribed from uptime alerts on \d{4}-\d\d-\d\d$/,
      ),
    });
    // Another topic still arrives.
    expect((await crawlSummary()).map((d) => d.state)).toEqual(['sent']);
    expect(await addressesOf()).toContainEqual(
      expect.objectContaining({
        email: 'owner@consent.test',
        status: 'member',
        unsubscribed: [expect.objectContaining({ topic: 'uptime' })],
      }),
    );

    // The owner subscribes a member's address again: it receives the topic at once.
    const back = await v1({ token: owner.token }).POST('/v1/notifications/resubscribe', {
      body: { email: 'owner@consent.test', topic: 'uptime' },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.address).toMatchObject({ status: 'member', unsubscribed: [] });
    expect((await down()).map((d) => d.state)).toEqual(['sent']);
    const missing = await v1({ token: owner.token }).POST('/v1/notifications/resubscribe', {
      body: { email: 'owner@consent.test', topic: 'uptime' },
    });
    expect(missing.status).toBe(404);
  });

  it('an outside address subscribed again must confirm again', async () => {
    await patchOrg({ ...EMPTY_LISTS, perfAlertRecipients: [{ kind: 'email', email: 'cto@outside.test' }] });
    await confirm(await confirmationToken(db, 'cto@outside.test'));
    const perf = () =>
      notify('perf-regression', {
        hostname: 'consent.example',
        failing: [{ metric: 'lcp', threshold: 2500, before: 2000, after: 3100 }],
      });
    expect((await perf()).map((d) => d.state)).toEqual(['sent']);
    const url = (resend.processed.at(-1)!.body.headers as Record<string, string>)['List-Unsubscribe']!.slice(
      1,
      -1,
    );
    expect((await oneClick(url)).status).toBe(200);
    expect((await perf()).map((d) => d.state)).toEqual(['cancelled']);

    const asked = mailsTo('cto@outside.test').length;
    const back = await v1({ token: owner.token }).POST('/v1/notifications/resubscribe', {
      body: { email: 'cto@outside.test', topic: 'performance' },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    // The cooldown of the first confirmation has not passed: pending, and the state says why no mail went.
    expect(back.body.address).toMatchObject({ status: 'pending', unsubscribed: [] });
    expect(back.body.address.confirmationError).toMatch(/limit of confirmation mails/);
    expect(mailsTo('cto@outside.test')).toHaveLength(asked);
    expect((await perf()).map((d) => d.last_outcome)).toEqual([expect.stringMatching(/has not confirmed/)]);
  });
});

describe('confirmation mails are limited', () => {
  it('per organization, and per address across organizations', async () => {
    const tenant = randomUUID();
    const now = Date.now();
    const addresses = Array.from(
      { length: CONFIRMATION_LIMITS.perOrganization + 3 },
      (_, i) => `bulk${i}@outside.test`,
    );
    await requestConfirmations(db, tenant, addresses, now);
    const rows = await db
      .select()
      .from(notificationAddresses)
      .where(eq(notificationAddresses.tenant_id, tenant));
    expect(rows.filter((r) => r.confirm_sent_at !== null)).toHaveLength(CONFIRMATION_LIMITS.perOrganization);
    expect(rows.filter((r) => r.confirm_error?.includes('limit of confirmation mails'))).toHaveLength(3);

    const target = 'popular@outside.test';
    for (let i = 0; i < CONFIRMATION_LIMITS.perAddress + 2; i++)
      await requestConfirmations(db, randomUUID(), [target], now);
    expect(mailsTo(target)).toHaveLength(CONFIRMATION_LIMITS.perAddress);
  });
});

describe("the organization's name in mail", () => {
  it('is escaped, on one line and capped', async () => {
    const hostile = `Acme\r\nBcc: victim@outside.test <script>alert(1)</script> ${'x'.repeat(200)}`;
    await db.update(organizations).set({ name: hostile }).where(eq(organizations.id, owner.tenantId));
    try {
      await patchOrg({
        ...EMPTY_LISTS,
        searchAlertRecipients: [{ kind: 'email', email: 'named@outside.test' }],
      });
      const [mail] = mailsTo('named@outside.test');
      const subject = String(mail!.body.subject);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(subject).toContain('Acme Bcc: victim@outside.test');
      const shown = subject.replace(/^Please confirm: notifications from /, '').replace(/ on Sitewatch$/, '');
      expect([...shown]).toHaveLength(MAIL_ORGANIZATION_NAME_CAP);
      expect(shown.endsWith('…')).toBe(true);
      expect(mail!.body.html).not.toContain('<script>');
      expect(mail!.body.html).toContain('&lt;script&gt;');
      // A notification to a member: the HTML escapes it too (React Email), and its subject is one line.
      const before = resend.processed.length;
      await patchOrg({ ...EMPTY_LISTS, crawlReportRecipients: [{ kind: 'user', userId: owner.userId }] });
      await crawlSummary();
      const notification = resend.processed.slice(before).at(-1)!;
      expect(notification.body.html).not.toContain('<script>');
      expect(notification.body.html).toContain('Acme Bcc: victim@outside.test &lt;script&gt;');
    } finally {
      await db
        .update(organizations)
        .set({ name: "owner's sites" })
        .where(eq(organizations.id, owner.tenantId));
    }
  });
});
