import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { createNotifyFunction, OUTBOX_POLL_MS } from '@/jobs/functions/notify';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { config, resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  mailMessages,
  notificationDeliveries,
  notificationOutbox,
  notificationReceivers,
  sites,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { type DeliveryOptions, deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import type { Notification } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { DELIVERY_LEASE_MS, MAX_DELIVERY_ATTEMPTS } from '@/lib/notify/retry';
import { emptySettings } from '@/lib/notify/settings';
import { storeWebhooks } from '@/lib/notify/stored-webhooks';
import { sendTestNotification } from '@/lib/notify/test-send';
import { type Query, type RequestBody, v1 } from '../support/api-client';
import { quietLogger } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { confirmOutsideAddresses } from '../support/mail-consent';
import {
  type Receiver,
  startDiscord,
  startHttpReceiver,
  startResend,
  startSlack,
  startTeams,
} from '../support/notify-receivers';

/*
 * Delivery end to end, against local servers speaking Slack's, Discord's, Teams' (Workflows),
 * Resend's formats and a generic receiver verifying Standard Webhooks signatures with the
 * `standardwebhooks` package: receivers resolved at send time, each (event, receiver) sent once,
 * retries with backoff, giving up, a crash between sending and recording, test sends and their 502s,
 * the delivery log, and a finished crawl mailing its summary through the job functions.
 *
 * The delivery functions take an injected clock for the backoff; signatures are checked by the
 * receiver against real time, so the http receiver is only used where the clock moves minutes.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let member: { token: string; userId: string; memberId: string };
let siteId: string;
let slack: Receiver;
let discord: Receiver;
let teams: Receiver;
let resend: Receiver;
let http: Awaited<ReturnType<typeof startHttpReceiver>>;
let secrets: string[] = [];
let appUrl: string;

const MEMBER_EMAIL = 'member@delivery.test';
const MIN = 60_000;

/** Mail through the Resend stand-in (on), or the local outbox, whose log line test sign-ins read codes from (off). */
function mailThroughResend(on: boolean) {
  if (on) {
    process.env.RESEND_API_KEY = 're_test_delivery';
    process.env.RESEND_BASE_URL = resend.url;
  } else {
    delete process.env.RESEND_API_KEY;
    delete process.env.RESEND_BASE_URL;
  }
  resetConfig();
}

/** A new member of the organization (signing in reads the code from the local outbox). */
async function join(email: string) {
  mailThroughResend(false);
  try {
    return await addMember(db, { ownerToken: owner.token, tenantId: owner.tenantId, email, role: 'member' });
  } finally {
    mailThroughResend(true);
  }
}

/** Resolves queued events and sends everything due at `now`, batch after batch, as the job does. */
async function drain(now = Date.now(), options: DeliveryOptions = {}) {
  const clock = { now: () => now, ...options };
  await dispatchEvents(db, clock);
  const tally = { claimed: 0, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  for (;;) {
    const batch = await deliverDue(db, clock);
    if (batch.claimed === 0) return tally;
    for (const k of Object.keys(tally) as (keyof typeof tally)[]) tally[k] += batch[k];
  }
}

let queued = 0;
async function enqueue(kind: string, payload: object, site: string | null = siteId, now = Date.now()) {
  const dedupeKey = `test:${kind}:${++queued}`;
  await enqueueNotification(db, {
    tenantId: owner.tenantId,
    siteId: site,
    ...({ kind, payload } as Notification),
    dedupeKey,
    now,
  });
  const [row] = await db
    .select()
    .from(notificationOutbox)
    .where(eq(notificationOutbox.dedupe_key, dedupeKey));
  return row!.id;
}

const deliveriesOf = (eventId: string) =>
  db.select().from(notificationDeliveries).where(eq(notificationDeliveries.event_id, eventId));

const patchOrg = async (body: RequestBody<'/v1/notifications', 'patch'>) => {
  const res = await v1({ token: owner.token }).PATCH('/v1/notifications', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.settings;
};

/** Every list empty: the reset body before each test. */
const { includeOrgDefaults: _scopeFlag, ...EMPTY_LISTS } = emptySettings();

const monitor = {
  monitorId: '6a1f8a0e-3f55-4a40-9a0e-5d1d3c1b2a10',
  monitorName: 'Home page',
  url: 'https://delivery.example/',
};

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  [slack, discord, teams, resend] = await Promise.all([
    startSlack(),
    startDiscord(),
    startTeams(),
    startResend(),
  ]);
  http = await startHttpReceiver(() => secrets);
  owner = await signInOwner(db, 'owner@delivery.test');
  member = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: MEMBER_EMAIL,
    role: 'member',
  });
  mailThroughResend(true);
  appUrl = config().appUrl;
  const created = await v1({ token: owner.token }).POST('/v1/sites', {
    body: { rootUrl: 'https://delivery.example/' },
  });
  siteId = created.body.site.id;
  const org = await v1({ token: owner.token }).GET('/v1/notifications');
  secrets = [org.body.signingSecret];
});

afterAll(async () => {
  await Promise.all([slack, discord, teams, resend, http].map((r) => r?.close()));
  await closeDispatchers();
  mailThroughResend(false);
  await teardown();
});

beforeEach(async () => {
  // Every test starts from no receivers and nothing due.
  await patchOrg(EMPTY_LISTS);
  await drain(Date.now() + 365 * 24 * 60 * MIN);
});

describe('uptime incidents', () => {
  it('an outage and its recovery reach every uptime receiver once each, monitor targets on top', async () => {
    await patchOrg({
      uptimeRecipients: [
        { kind: 'user', userId: member.userId },
        { kind: 'email', email: 'oncall@delivery.test' },
      ],
      uptimeWebhooks: [
        { kind: 'slack', url: slack.url },
        { kind: 'discord', url: discord.url },
        { kind: 'teams', url: teams.url },
        { kind: 'http', url: http.url },
      ],
    });
    // Outside addresses receive notifications once they confirmed (tests/integration/notify-consent.test.ts).
    await confirmOutsideAddresses(db, owner.tenantId, 'oncall@delivery.test', 'extra@delivery.test');
    // As the uptime rounds queue them: the monitor's webhooks sealed, as it stores them.
    const targets = {
      alertEmails: ['extra@delivery.test', 'ONCALL@delivery.test'],
      alertWebhooks: storeWebhooks([{ kind: 'http', url: http.url }], owner.tenantId),
    };
    const before = {
      mails: resend.processed.length,
      slack: slack.requests.length,
      discord: discord.requests.length,
      teams: teams.requests.length,
      http: http.processed.length,
    };
    const downAt = Date.now() - 5 * MIN;
    const down = await enqueue('uptime-down', {
      ...monitor,
      ...targets,
      incidentId: 'b0c1a6f4-8d2e-4b7a-9f00-000000000001',
      downAt,
      cause: 'timeout',
      failingRegions: ['eu', 'na', 'as'],
      detail: 'timed out after 10 s',
    });
    const up = await enqueue('uptime-recovered', {
      ...monitor,
      ...targets,
      incidentId: 'b0c1a6f4-8d2e-4b7a-9f00-000000000001',
      downAt,
      recoveredAt: downAt + 4 * MIN,
      cause: 'timeout',
    });
    const tally = await drain();
    // Three addresses (member, on-call typed twice in different case, extra) and four webhooks, twice.
    expect(tally).toMatchObject({ sent: 14, failed: 0, retrying: 0 });
    const mails = resend.processed.slice(before.mails);
    expect(mails.map((m) => [(m.body.to as string[])[0], m.body.subject]).sort()).toEqual(
      [
        [MEMBER_EMAIL, 'Down: Home page'],
        [MEMBER_EMAIL, 'Recovered: Home page'],
        ['extra@delivery.test', 'Down: Home page'],
        ['extra@delivery.test', 'Recovered: Home page'],
        ['oncall@delivery.test', 'Down: Home page'],
        ['oncall@delivery.test', 'Recovered: Home page'],
      ].sort(),
    );
    const link = `${appUrl}/sites/${siteId}/uptime/${monitor.monitorId}`;
    for (const mail of mails) {
      expect(mail.body.html).toContain(`href="${link}"`);
      expect(mail.body.text).toContain(link);
      expect(mail.headers['idempotency-key']).toMatch(/^msg_/);
    }
    expect(mails.find((m) => m.body.subject === 'Recovered: Home page')?.body.text).toContain(
      'Downtime: 4 min',
    );
    expect(slack.requests.length - before.slack).toBe(2);
    expect(discord.requests.length - before.discord).toBe(2);
    expect(teams.requests.length - before.teams).toBe(2);
    const hooks = http.processed.slice(before.http);
    expect(hooks.map((h) => h.body.type).sort()).toEqual(['uptime.down', 'uptime.recovered']);
    expect(hooks[0]?.body).toMatchObject({
      id: expect.any(String),
      timestamp: expect.any(Number),
      data: {
        monitorId: monitor.monitorId,
        cause: 'timeout',
        site: { id: siteId, hostname: 'delivery.example' },
        dashboardUrl: link,
      },
    });
    // Other receivers' addresses never go out in a message.
    expect(JSON.stringify(hooks)).not.toContain('extra@delivery.test');
    expect(http.rejected).toEqual([]);

    // Everything recorded sent, once; another pass sends nothing again.
    for (const id of [down, up]) {
      const rows = await deliveriesOf(id);
      expect(rows).toHaveLength(7);
      expect(rows.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
    }
    expect(await drain(Date.now() + 3 * 3600_000)).toMatchObject({ claimed: 0 });
    expect(resend.processed.length - before.mails).toBe(6);
    expect(slack.requests.length - before.slack).toBe(2);
  });

  it('each chat format is what its app accepts: Slack blocks, a Discord embed within limits, a Teams Adaptive Card', async () => {
    await patchOrg({
      uptimeWebhooks: [
        { kind: 'slack', url: slack.url },
        { kind: 'discord', url: discord.url },
        { kind: 'teams', url: teams.url },
      ],
    });
    const start = {
      slack: slack.requests.length,
      discord: discord.requests.length,
      teams: teams.requests.length,
    };
    await enqueue('uptime-down', {
      ...monitor,
      // A hostile name: Slack control characters, a Discord mention, and more than any title holds.
      monitorName: `<!channel> @everyone ${'x'.repeat(5000)}`,
      incidentId: 'b0c1a6f4-8d2e-4b7a-9f00-000000000002',
      downAt: Date.now(),
      cause: 'http_5xx',
      failingRegions: ['eu', 'oc'],
    });
    expect(await drain()).toMatchObject({ sent: 3, failed: 0 });
    const s = slack.requests[start.slack]!.body;
    expect(typeof s.text).toBe('string');
    const blocks = s.blocks as { type: string; text?: { text: string } }[];
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'actions', 'context']);
    expect([...(blocks[0]!.text!.text as string)].length).toBeLessThanOrEqual(150);
    // Only the header is plain text (never parsed for mentions); every mrkdwn text is escaped.
    expect(JSON.stringify({ text: s.text, blocks: blocks.slice(1) })).not.toContain('<!channel>');
    expect(JSON.stringify(blocks[1])).toContain('&lt;!channel&gt;');
    const d = discord.requests[start.discord]!.body as {
      embeds: { title: string }[];
      allowed_mentions: unknown;
    };
    expect([...d.embeds[0]!.title].length).toBeLessThanOrEqual(256);
    expect(d.allowed_mentions).toEqual({ parse: [] });
    const t = teams.requests[start.teams]!.body as {
      attachments: { content: { version: string; actions: unknown[] } }[];
    };
    expect(t.attachments[0]!.content.version).toBe('1.4');
    expect(t.attachments[0]!.content.actions).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open the monitor',
        url: expect.stringContaining(`/uptime/${monitor.monitorId}`),
      },
    ]);
  });
});

describe('retries', () => {
  it('a failing webhook is retried with backoff and never re-sent after success', async () => {
    await patchOrg({ uptimeWebhooks: [{ kind: 'slack', url: slack.url }] });
    const t0 = Date.now();
    const start = slack.requests.length;
    slack.fail(2, 500, 'internal_error');
    const event = await enqueue('uptime-down', { ...monitor, incidentId: 'i-retry', downAt: t0 }, siteId, t0);
    expect(await drain(t0)).toMatchObject({ claimed: 1, retrying: 1 });
    let [row] = await deliveriesOf(event);
    expect(row).toMatchObject({
      state: 'pending',
      attempts: 1,
      next_attempt_at: t0 + MIN,
      last_status: 500,
      last_outcome: 'the webhook answered HTTP 500: internal_error',
    });
    expect(await drain(t0 + MIN - 1)).toMatchObject({ claimed: 0 });
    expect(await drain(t0 + MIN)).toMatchObject({ claimed: 1, retrying: 1 });
    [row] = await deliveriesOf(event);
    expect(row).toMatchObject({ attempts: 2, next_attempt_at: t0 + 3 * MIN });
    expect(await drain(t0 + 3 * MIN)).toMatchObject({ claimed: 1, sent: 1 });
    expect(await drain(t0 + 600 * MIN)).toMatchObject({ claimed: 0 });
    expect(slack.requests.length - start).toBe(3);
    [row] = await deliveriesOf(event);
    expect(row).toMatchObject({ state: 'sent', attempts: 3, last_status: 200, sent_at: t0 + 3 * MIN });

    const log = await v1({ token: owner.token }).GET('/v1/notifications/deliveries', {
      params: { query: { limit: 1 } },
    });
    expect(log.body.deliveries[0]).toMatchObject({
      id: row!.id,
      state: 'sent',
      attempts: 3,
      history: [
        { attempt: 1, outcome: 'failed', status: 500, startedAt: t0 },
        { attempt: 2, outcome: 'failed', status: 500, startedAt: t0 + MIN },
        { attempt: 3, outcome: 'sent', status: 200, startedAt: t0 + 3 * MIN },
      ],
    });
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts, about two hours, and at once on a refusal that cannot change`, async () => {
    await patchOrg({ uptimeWebhooks: [{ kind: 'discord', url: discord.url }] });
    const t0 = Date.now();
    const start = discord.requests.length;
    discord.fail(100, 503, 'upstream down');
    const event = await enqueue(
      'uptime-down',
      { ...monitor, incidentId: 'i-give-up', downAt: t0 },
      siteId,
      t0,
    );
    let now = t0;
    for (let i = 0; i < 20; i++) {
      await drain(now);
      const [row] = await deliveriesOf(event);
      if (row!.state !== 'pending') break;
      now = row!.next_attempt_at!;
    }
    const [row] = await deliveriesOf(event);
    expect(row).toMatchObject({ state: 'failed', attempts: MAX_DELIVERY_ATTEMPTS, next_attempt_at: null });
    expect(row!.last_outcome).toBe(
      `the webhook answered HTTP 503: upstream down; gave up after ${MAX_DELIVERY_ATTEMPTS} attempts`,
    );
    expect(discord.requests.length - start).toBe(MAX_DELIVERY_ATTEMPTS);
    // 1 + 2 + 4 + 8 + 16 + 32 + 60 minutes between the eight attempts.
    expect(now - t0).toBe(123 * MIN);

    discord.fail(1, 404, '{"message": "Unknown Webhook", "code": 10015}');
    const gone = await enqueue('uptime-down', { ...monitor, incidentId: 'i-gone', downAt: t0 }, siteId, t0);
    // Eight failures in a row opened the receiver's circuit: the new delivery waits, no attempt spent.
    await dispatchEvents(db, { now: () => t0 });
    await drain(now);
    expect((await deliveriesOf(gone))[0]).toMatchObject({ state: 'pending', attempts: 0 });
    const [circuit] = await db
      .select()
      .from(notificationReceivers)
      .where(eq(notificationReceivers.channel, 'discord'));
    expect(circuit!.open_until).toBeGreaterThan(now);
    // Half-open: it goes out, and a refusal that cannot change fails it at once.
    await drain(circuit!.open_until!);
    const [refused] = await deliveriesOf(gone);
    expect(refused).toMatchObject({ state: 'failed', attempts: 1, last_status: 404 });
    expect(refused!.last_outcome).toContain('not retried');
    discord.fail(0, 200);
    // The circuit (open again, and far in this test's simulated future) is not the later tests' business.
    await db.delete(notificationReceivers);
  });
});

describe('a crash between sending and recording', () => {
  it('sends again under the same webhook-id once the lease runs out; the receiver processes it once', async () => {
    await patchOrg({ uptimeWebhooks: [{ kind: 'http', url: http.url }] });
    const start = { requests: http.requests.length, processed: http.processed.length };
    const t0 = Date.now();
    const event = await enqueue('uptime-down', { ...monitor, incidentId: 'i-crash', downAt: t0 }, siteId, t0);
    const crash = () => {
      throw new Error('worker killed after the receiver answered');
    };
    await expect(drain(t0, { afterSend: crash })).rejects.toThrow('worker killed');
    let [row] = await deliveriesOf(event);
    expect(row).toMatchObject({ state: 'sending', attempts: 1, lease_until: t0 + DELIVERY_LEASE_MS });
    expect(http.processed.length - start.processed).toBe(1);

    // The lease still holds: nobody sends it again.
    expect(await drain(t0 + DELIVERY_LEASE_MS - 1)).toMatchObject({ claimed: 0 });
    expect(await drain(t0 + DELIVERY_LEASE_MS)).toMatchObject({ claimed: 1, sent: 1 });
    const attempts = http.requests.slice(start.requests);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.headers['webhook-id']).toBe(attempts[0]!.headers['webhook-id']);
    expect(attempts[0]!.headers['webhook-id']).toBe(row!.idempotency_key);
    expect(http.processed.length - start.processed).toBe(1);
    [row] = await deliveriesOf(event);
    expect(row).toMatchObject({ state: 'sent', attempts: 2 });
    const log = await v1({ token: owner.token }).GET('/v1/notifications/deliveries', {
      params: { query: { kind: 'uptime-down', limit: 1 } },
    });
    expect(log.body.deliveries[0].history.map((h: { outcome: string }) => h.outcome)).toEqual([
      'interrupted',
      'sent',
    ]);
  });

  it('an email is sent again with the same Idempotency-Key, which Resend answers without sending twice', async () => {
    await patchOrg({ uptimeRecipients: [{ kind: 'email', email: 'crash@delivery.test' }] });
    await confirmOutsideAddresses(db, owner.tenantId, 'crash@delivery.test');
    const start = { requests: resend.requests.length, processed: resend.processed.length };
    const t0 = Date.now();
    const event = await enqueue(
      'uptime-down',
      { ...monitor, incidentId: 'i-crash-mail', downAt: t0 },
      siteId,
      t0,
    );
    await expect(
      drain(t0, {
        afterSend: () => {
          throw new Error('worker killed');
        },
      }),
    ).rejects.toThrow();
    await drain(t0 + DELIVERY_LEASE_MS);
    const requests = resend.requests.slice(start.requests);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers['idempotency-key']).toBe(requests[1]!.headers['idempotency-key']);
    expect(resend.processed.length - start.processed).toBe(1);
    expect((await deliveriesOf(event))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });
});

describe('who receives an event: resolved when it is delivered', () => {
  const keysOf = async (eventId: string) => (await deliveriesOf(eventId)).map((d) => d.receiver_key).sort();
  const summary = (site: string | null = siteId) =>
    enqueue(
      'crawl-summary',
      { runId: 'r', hostname: 'delivery.example', state: 'completed', brokenCount: 0 },
      site,
    );

  it('org defaults, an override with and without them, a deleted override, a removed member', async () => {
    const override = (body: RequestBody<'/v1/sites/{id}/notifications', 'patch'>) =>
      v1({ token: owner.token }).PATCH('/v1/sites/{id}/notifications', {
        params: { path: { id: siteId } },
        body,
      });
    const leaver = await join('leaver@delivery.test');
    await patchOrg({
      crawlReportRecipients: [
        { kind: 'email', email: 'org@delivery.test' },
        { kind: 'user', userId: leaver.userId },
      ],
    });
    const table: [string, () => Promise<unknown>, string[]][] = [
      ['org defaults', async () => {}, ['email:leaver@delivery.test', 'email:org@delivery.test']],
      [
        'override including the defaults',
        () => override({ crawlReportRecipients: [{ kind: 'email', email: 'site@delivery.test' }] }),
        ['email:leaver@delivery.test', 'email:org@delivery.test', 'email:site@delivery.test'],
      ],
      [
        'override without the defaults',
        () => override({ includeOrgDefaults: false }),
        ['email:site@delivery.test'],
      ],
      [
        'override deleted',
        () =>
          v1({ token: owner.token }).DELETE('/v1/sites/{id}/notifications', {
            params: { path: { id: siteId } },
          }),
        ['email:leaver@delivery.test', 'email:org@delivery.test'],
      ],
      [
        'member removed',
        () =>
          v1({ token: owner.token }).DELETE('/v1/members/{memberId}', {
            params: { path: { memberId: leaver.memberId } },
          }),
        ['email:org@delivery.test'],
      ],
    ];
    for (const [label, change, expected] of table) {
      await change();
      const event = await summary();
      await dispatchEvents(db);
      expect(await keysOf(event), label).toEqual(expected);
    }
    // An event of no site in particular follows the org defaults.
    const orgWide = await summary(null);
    await dispatchEvents(db);
    expect(await keysOf(orgWide)).toEqual(['email:org@delivery.test']);
    await drain();
  });

  it('a member removed after the event was resolved is not sent to (cancelled)', async () => {
    const soon = await join('soon-gone@delivery.test');
    await patchOrg({ crawlReportRecipients: [{ kind: 'user', userId: soon.userId }] });
    const event = await summary();
    await dispatchEvents(db);
    await v1({ token: owner.token }).DELETE('/v1/members/{memberId}', {
      params: { path: { memberId: soon.memberId } },
    });
    const sentBefore = resend.processed.length;
    expect(await drain()).toMatchObject({ cancelled: 1, sent: 0 });
    expect(resend.processed.length).toBe(sentBefore);
    expect((await deliveriesOf(event))[0]).toMatchObject({
      state: 'cancelled',
      last_outcome: 'not sent: no longer a member of the organization',
    });
  });

  it('a settings change applies to the next event, with no restart', async () => {
    const first = await summary();
    await drain();
    expect(await keysOf(first)).toEqual([]);
    await patchOrg({ crawlReportRecipients: [{ kind: 'email', email: 'new@delivery.test' }] });
    const second = await summary();
    await drain();
    expect(await keysOf(second)).toEqual(['email:new@delivery.test']);
  });

  it('allowance reached goes to the owners and admins; events of a deleted site go nowhere', async () => {
    const event = await enqueue('allowance-reached', {
      app: 'crawl',
      hostname: 'delivery.example',
      period: '2026-11',
      allowance: 5000,
      used: 5000,
    });
    await drain();
    expect(await keysOf(event)).toEqual(['email:owner@delivery.test']);
    const mail = resend.processed.at(-1)!;
    expect(mail.body.subject).toBe('delivery.example used its monthly allowance of pages crawled');
    expect(mail.body.html).toContain(`${appUrl}/billing`);

    const doomed = await v1({ token: owner.token }).POST('/v1/sites', {
      body: { rootUrl: 'https://doomed.example/' },
    });
    await patchOrg({ crawlReportRecipients: [{ kind: 'email', email: 'org@delivery.test' }] });
    const orphan = await summary(doomed.body.site.id);
    await db.delete(sites).where(eq(sites.id, doomed.body.site.id));
    await drain();
    expect(await keysOf(orphan)).toEqual([]);
    const [row] = await db.select().from(notificationOutbox).where(eq(notificationOutbox.id, orphan));
    expect(row).toMatchObject({
      state: 'dispatched',
      last_error: 'the site was deleted before the notification went out',
    });

    const unknown = await enqueue('something-else', {});
    await drain();
    const [bad] = await db.select().from(notificationOutbox).where(eq(notificationOutbox.id, unknown));
    expect(bad).toMatchObject({ state: 'failed', last_error: 'unknown notification kind "something-else"' });
  });
});

describe('signing', () => {
  it('after a rotation both secrets sign for 24 hours; a receiver on either one verifies', async () => {
    await patchOrg({ perfAlertWebhooks: [{ kind: 'http', url: http.url }] });
    const old = secrets[0]!;
    const rotated = await v1({ token: owner.token }).POST('/v1/notifications/signing-secret');
    const fresh = rotated.body.signingSecret as string;
    const start = http.requests.length;
    secrets = [old];
    await enqueue('perf-regression', {
      hostname: 'delivery.example',
      formFactor: 'ALL',
      periodEnd: '2026-11-20',
      failing: [{ metric: 'lcp', threshold: 2500, before: 2100, after: 3400 }],
    });
    expect(await drain()).toMatchObject({ sent: 1 });
    const got = http.requests[start]!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, fresh]) {
      expect(new Webhook(secret).verify(got.raw, got.headers as Record<string, string>)).toMatchObject({
        type: 'performance.regression',
        data: { failing: [{ metric: 'lcp' }] },
      });
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        got.raw,
        got.headers as Record<string, string>,
      ),
    ).toThrow();

    // A day later the previous secret is gone: one signature, by the new secret.
    const later = Date.now() + 24 * 3600_000 + MIN;
    secrets = [fresh];
    await enqueue('perf-regression', { hostname: 'delivery.example', failing: [] }, siteId, later);
    await drain(later);
    const last = http.requests.at(-1)!;
    const signatures = String(last.headers['webhook-signature']).split(' ');
    expect(signatures).toEqual([
      new Webhook(fresh).sign(String(last.headers['webhook-id']), new Date(later), last.raw),
    ]);
  });
});

describe('POST /v1/notifications/test', () => {
  const send = (body: RequestBody<'/v1/notifications/test', 'post'>) =>
    v1({ token: owner.token }).POST('/v1/notifications/test', { body });

  it('reaches each of the four webhook kinds and an email address, unsaved', async () => {
    const start = {
      slack: slack.requests.length,
      discord: discord.requests.length,
      teams: teams.requests.length,
    };
    for (const [kind, receiver] of [
      ['slack', slack],
      ['discord', discord],
      ['teams', teams],
      ['http', http],
    ] as const) {
      const res = await send({ webhook: { kind, url: receiver.url } });
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body).toEqual({ ok: true });
    }
    expect(slack.requests.length - start.slack).toBe(1);
    expect(discord.requests.length - start.discord).toBe(1);
    expect(teams.requests.length - start.teams).toBe(1);
    expect(http.processed.at(-1)?.body).toMatchObject({ type: 'notification.test' });
    await confirmOutsideAddresses(db, owner.tenantId, 'someone@elsewhere.test');
    const mail = await send({ email: 'someone@elsewhere.test' });
    expect(mail.status).toBe(200);
    expect(resend.processed.at(-1)?.body).toMatchObject({
      to: ['someone@elsewhere.test'],
      subject: 'Test notification from Sitewatch',
    });
    // Nothing is queued or logged for a test.
    expect(await db.select().from(notificationOutbox).where(eq(notificationOutbox.kind, 'test'))).toEqual([]);
  });

  it('answers 502 naming the failure: refused, non-2xx with the status, a rejected email', async () => {
    const closed: TestServer = await startServer('127.0.0.1');
    const closedUrl = closed.url('/hook');
    await closed.close();
    const refused = await send({ webhook: { kind: 'http', url: closedUrl } });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatch(/^http webhook delivery failed: connection refused by 127\.0\.0\.1/);

    slack.fail(1, 404, 'no_service');
    const notFound = await send({ webhook: { kind: 'slack', url: slack.url } });
    expect(notFound.status).toBe(502);
    expect(notFound.body).toEqual({
      error: 'slack webhook delivery failed: the webhook answered HTTP 404: no_service',
    });

    await confirmOutsideAddresses(db, owner.tenantId, 'bounce@elsewhere.test');
    resend.fail(
      1,
      422,
      JSON.stringify({ statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' }),
    );
    const rejected = await send({ email: 'bounce@elsewhere.test' });
    expect(rejected.status).toBe(502);
    expect(rejected.body).toEqual({
      error: 'email delivery failed: mail provider refused the message (status 422: Invalid `to` field.)',
    });
  });

  it('a timeout and a private address are delivery failures too', async () => {
    const slow = await startServer('127.0.0.2', { 'POST /hook': { delayMs: 2000, body: 'late' } });
    try {
      await expect(
        sendTestNotification(
          db,
          owner.tenantId,
          { webhook: { kind: 'http', url: slow.url('/hook') } },
          { timeoutMs: 200 },
        ),
      ).rejects.toThrow('http webhook delivery failed: timed out after 0.2 s');
    } finally {
      await slow.close();
    }
    await expect(
      sendTestNotification(
        db,
        owner.tenantId,
        { webhook: { kind: 'slack', url: slack.url } },
        { allowPrivate: false },
      ),
    ).rejects.toThrow(
      /^slack webhook delivery failed: refused to connect to 127\.0\.0\.1: not a public internet address/,
    );
  });
});

describe('the delivery log', () => {
  it('newest first, receivers shown as member, address or webhook origin, filtered and paged', async () => {
    await patchOrg({
      searchAlertRecipients: [
        { kind: 'user', userId: member.userId },
        { kind: 'email', email: 'seo@delivery.test' },
      ],
      searchAlertWebhooks: [{ kind: 'slack', url: slack.url }],
    });
    const event = await enqueue('search-traffic-drop', {
      hostname: 'delivery.example',
      property: 'sc-domain:delivery.example',
      last7: { from: '2026-11-14', to: '2026-11-20', clicks: 40, impressions: 900 },
      previous7: { from: '2026-11-07', to: '2026-11-13', clicks: 100, impressions: 1000 },
      clicksChangePct: -60,
    });
    await drain();
    const get = (query: Query<'/v1/notifications/deliveries', 'get'>) =>
      v1({ token: owner.token }).GET('/v1/notifications/deliveries', { params: { query } });
    const res = await get({ kind: 'search-traffic-drop', siteId });
    expect(res.status).toBe(200);
    const ofEvent = res.body.deliveries.filter((d: { eventId: string }) => d.eventId === event);
    expect(ofEvent.map((d: { receiver: unknown }) => d.receiver)).toEqual(
      expect.arrayContaining([
        { type: 'member', userId: member.userId, name: expect.any(String), email: MEMBER_EMAIL },
        { type: 'email', email: 'seo@delivery.test' },
        { type: 'webhook', kind: 'slack', url: `${slack.server.origin}/…` },
      ]),
    );
    expect(JSON.stringify(res.body)).not.toContain('XXXXSECRET');
    type Logged = { receiver: { type: string }; state: string; outcome: string };
    // The outside address never confirmed: nothing went to it, and the log says why.
    expect(ofEvent.find((d: Logged) => d.receiver.type === 'email')).toMatchObject({
      state: 'cancelled',
      outcome:
        'not sent: seo@delivery.test is not a member and has not confirmed that it wants mail from this organization',
    });
    expect(ofEvent.find((d: Logged) => d.receiver.type === 'webhook')).toMatchObject({
      kind: 'search-traffic-drop',
      siteId,
      hostname: 'delivery.example',
      state: 'sent',
      attempts: 1,
      maxAttempts: MAX_DELIVERY_ATTEMPTS,
      nextAttemptAt: null,
    });
    expect(
      (await get({ kind: 'uptime-recovered', siteId: '00000000-0000-4000-8000-000000000000' })).body,
    ).toEqual({
      deliveries: [],
      nextCursor: null,
    });

    // Pages of 2 cover every delivery once, newest first.
    const all = (await get({ limit: 100 })).body.deliveries as { id: string; createdAt: number }[];
    expect(all.length).toBeGreaterThan(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { deliveries: { id: string }[]; nextCursor: string | null } = (
        await get({ limit: 2, ...(cursor ? { cursor } : {}) })
      ).body;
      seen.push(...page.deliveries.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((d) => d.id));
    const times = all.map((d) => d.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe('a finished crawl', () => {
  let site: TestServer;
  beforeAll(async () => {
    site = await startServer('127.0.0.3', {
      '/': {
        headers: { 'content-type': 'text/html' },
        body: '<!doctype html><html lang="en"><head><title>Home</title></head><body><a href="/gone">old page</a><a href="/about">about</a></body></html>',
      },
      '/about': {
        headers: { 'content-type': 'text/html' },
        body: '<!doctype html><html lang="en"><head><title>About</title></head><body>about us</body></html>',
      },
    });
    await startJobRuntime({
      functions: [...createCrawlFunctions({ requestTimeoutMs: 2000 }), createNotifyFunction()],
      force: true,
      runner: { logger: quietLogger },
    });
  });
  afterAll(async () => {
    await stopJobRuntime();
    await site.close();
  });

  it('mails its summary to the configured member, through the job functions', async () => {
    await patchOrg({ crawlReportRecipients: [{ kind: 'user', userId: member.userId }] });
    const created = await v1({ token: owner.token }).POST('/v1/sites', {
      body: { rootUrl: site.url('/'), a11yEnabled: false },
    });
    expect(created.status).toBe(201);
    const crawled = created.body.site.id as string;
    const started = await v1({ token: owner.token }).POST('/v1/sites/{id}/crawl', {
      params: { path: { id: crawled } },
      body: { chainA11y: false },
    });
    expect(started.status).toBe(202);
    await jobsIdle();
    const mail = resend.processed.find((m) => (m.body.subject as string).startsWith('Crawl of 127.0.0.3'));
    expect(mail?.body).toMatchObject({ to: [MEMBER_EMAIL], subject: 'Crawl of 127.0.0.3: 1 broken link' });
    expect(mail?.body.text).toContain('Pages crawled: 2');
    expect(mail?.body.text).toContain(`${config().appUrl}/sites/${crawled}/links`);
    const stored = await db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.to, MEMBER_EMAIL), eq(mailMessages.transport, 'resend')));
    expect(stored.some((m) => m.subject === 'Crawl of 127.0.0.3: 1 broken link')).toBe(true);
  });

  it('in-process, an event queued without notify/queued (the uptime round loop) goes out within seconds', async () => {
    await patchOrg({ uptimeWebhooks: [{ kind: 'slack', url: slack.url }] });
    const before = slack.requests.length;
    const event = await enqueue('uptime-down', { ...monitor, incidentId: 'i-poll', downAt: Date.now() });
    await vi.waitFor(
      async () => {
        expect((await deliveriesOf(event))[0]?.state).toBe('sent');
      },
      { timeout: 3 * OUTBOX_POLL_MS, interval: 250 },
    );
    expect(slack.requests.length - before).toBe(1);
  });
});
