import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { applyDataMigrations } from '@/lib/db/data-migrations';
import { queryRows } from '@/lib/db/rows';
import {
  dataMigrations,
  notificationDeliveries,
  notificationOutbox,
  notificationSettings,
  uptimeMonitors,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { enqueueNotification } from '@/lib/notify/outbox';
import { updateOrgSettings } from '@/lib/notify/settings';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, insertApiKey, signInOwner } from '../support/http';
import { type Receiver, startDiscord, startSlack } from '../support/notify-receivers';

/*
 * Webhook URLs are secrets (a Slack, Discord or Teams webhook's path is its credential): sealed at
 * rest in the settings, a monitor's alert webhooks, an uptime event's payload and a delivery's
 * target; read back in full only by owners and admins, with the origin alone for API keys and
 * members; never in the delivery log; and rows stored in the clear before are sealed by the data
 * migration, after which they deliver as before.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let member: { token: string; memberId: string };
let apiKey: string;
let siteId: string;
let slack: Receiver;
let discord: Receiver;
/** The part of a webhook URL that is its credential. */
const SLACK_SECRET = 'XXXXSECRET';
const DISCORD_SECRET = 'discord-token';

/** Every stored row of a table as text: what someone reading the database (or a dump) sees. */
const dump = async (table: string) => JSON.stringify(await queryRows(db, sql.raw(`select * from ${table}`)));

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  [slack, discord] = await Promise.all([startSlack(), startDiscord()]);
  owner = await signInOwner(db, 'owner@secrets.test');
  // These tests count webhook deliveries: the owner's default uptime mail (a new organization's
  // owner receives uptime alerts) is left out.
  await updateOrgSettings(db, owner.tenantId, { uptimeRecipients: [] });
  const created = await v1({ token: owner.token }).POST('/v1/sites', {
    body: { rootUrl: 'https://secrets.example/' },
  });
  siteId = created.body.site.id;
  const on = await v1({ token: owner.token }).PATCH('/v1/sites/{id}', {
    params: { path: { id: siteId } },
    body: { uptimeEnabled: true },
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  member = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'member@secrets.test',
    role: 'member',
  });
  const granted = await v1({ token: owner.token }).PATCH('/v1/members/{memberId}/access', {
    params: { path: { memberId: member.memberId } },
    body: { siteIds: [siteId] },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  apiKey = await insertApiKey(db, owner.tenantId);
});

afterAll(async () => {
  await Promise.all([slack?.close(), discord?.close()]);
  await closeDispatchers();
  await teardown();
});

describe('webhook URLs at rest and in responses', () => {
  it('settings: sealed in the database, read back in full by the owner', async () => {
    const saved = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: { uptimeWebhooks: [{ kind: 'slack', url: slack.url }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.settings.uptimeWebhooks).toEqual([{ kind: 'slack', url: slack.url }]);
    expect(await dump('notification_settings')).not.toContain(SLACK_SECRET);
    const read = await v1({ token: owner.token }).GET('/v1/notifications');
    expect(read.body.settings.uptimeWebhooks).toEqual([{ kind: 'slack', url: slack.url }]);
  });

  it("a monitor's alert webhooks: sealed; in full for the owner, the origin only for a key and a member", async () => {
    const created = await v1({ token: owner.token }).POST('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
      body: {
        url: 'https://secrets.example/',
        enabled: false,
        alertWebhooks: [{ kind: 'discord', url: discord.url }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.monitor.id;
    expect(JSON.parse(created.body.monitor.alert_webhooks)).toEqual([{ kind: 'discord', url: discord.url }]);
    expect(await dump('uptime_monitors')).not.toContain(DISCORD_SECRET);

    const read = (credential: { token?: string; apiKey?: string }) =>
      v1(credential).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', {
        params: { path: { id: siteId, monitorId: id } },
      });
    const origin = new URL(discord.url).origin;
    expect(JSON.parse((await read({ token: owner.token })).body.monitor.alert_webhooks)).toEqual([
      { kind: 'discord', url: discord.url },
    ]);
    for (const credential of [{ apiKey }, { token: member.token }]) {
      const res = await read(credential);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.monitor.alert_webhooks)).toEqual([{ kind: 'discord', url: `${origin}/…` }]);
      expect(JSON.stringify(res.body)).not.toContain(DISCORD_SECRET);
    }
    const list = await v1({ apiKey }).GET('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
    });
    expect(JSON.stringify(list.body)).not.toContain(DISCORD_SECRET);

    // What a key read, written back as it was, is refused rather than saved over the real URL.
    const echoed = await v1({ apiKey }).PATCH('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      params: { path: { id: siteId, monitorId: id } },
      body: { alertWebhooks: [{ kind: 'discord', url: `${origin}/…` }] },
    });
    expect(echoed.status).toBe(422);
    expect(echoed.body.error).toMatch(/^alertWebhooks\.0\.url: is a webhook URL with its path hidden/);
  });

  it("an uptime event's deliveries: sealed target, the URL's digest as the key, the origin in the log", async () => {
    const [monitor] = await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.site_id, siteId));
    await enqueueNotification(db, {
      tenantId: owner.tenantId,
      siteId,
      kind: 'uptime-down',
      // As the uptime rounds queue it: the monitor's alert webhooks as it stores them.
      payload: {
        monitorId: monitor!.id,
        monitorName: null,
        url: monitor!.url,
        alertEmails: [],
        alertWebhooks: monitor!.alert_webhooks!,
        incidentId: '0b7f6a52-1111-4c3b-9a51-000000000001',
        downAt: Date.now(),
        cause: 'timeout',
      },
      dedupeKey: 'secrets:uptime-down:1',
    });
    expect(await dump('notification_outbox')).not.toContain(DISCORD_SECRET);
    const before = { slack: slack.requests.length, discord: discord.requests.length };
    await dispatchEvents(db);
    expect(await deliverDue(db)).toMatchObject({ sent: 2, failed: 0 });
    expect(slack.requests.length - before.slack).toBe(1);
    expect(discord.requests.length - before.discord).toBe(1);

    const stored = await dump('notification_deliveries');
    expect(stored).not.toContain(SLACK_SECRET);
    expect(stored).not.toContain(DISCORD_SECRET);
    const log = await v1({ token: owner.token }).GET('/v1/notifications/deliveries');
    expect(log.body.deliveries.map((d: { receiver: unknown }) => d.receiver)).toEqual(
      expect.arrayContaining([
        { type: 'webhook', kind: 'slack', url: `${new URL(slack.url).origin}/…` },
        { type: 'webhook', kind: 'discord', url: `${new URL(discord.url).origin}/…` },
      ]),
    );
    expect(JSON.stringify(log.body)).not.toContain(SLACK_SECRET);
  });
});

describe('the data migration that seals what was stored in the clear', () => {
  it('seals settings, monitors, queued events and deliveries, which then deliver as before', async () => {
    // Rows as the service wrote them before webhook URLs were sealed.
    const now = Date.now();
    await db
      .update(notificationSettings)
      .set({ settings: { uptimeWebhooks: [{ kind: 'slack', url: slack.url }], uptimeRecipients: [] } })
      .where(eq(notificationSettings.tenant_id, owner.tenantId));
    const [monitor] = await db
      .update(uptimeMonitors)
      .set({ alert_webhooks: sql`${JSON.stringify([{ kind: 'discord', url: discord.url }])}::jsonb` })
      .where(eq(uptimeMonitors.site_id, siteId))
      .returning();
    const [event] = await db
      .insert(notificationOutbox)
      .values({
        tenant_id: owner.tenantId,
        site_id: siteId,
        kind: 'uptime-recovered',
        payload: {
          monitorId: monitor!.id,
          url: monitor!.url,
          alertWebhooks: [{ kind: 'discord', url: discord.url }],
          incidentId: '0b7f6a52-1111-4c3b-9a51-000000000002',
          downAt: now - 60_000,
          recoveredAt: now,
        },
        dedupe_key: 'secrets:legacy-event',
        next_attempt_at: now,
        created_at: now,
      })
      .returning();
    const [pendingDelivery] = await db
      .insert(notificationDeliveries)
      .values({
        tenant_id: owner.tenantId,
        event_id: event!.id,
        site_id: siteId,
        kind: 'uptime-recovered',
        channel: 'slack',
        receiver_key: `webhook:slack:${slack.url}`,
        target: slack.url,
        idempotency_key: 'msg_legacy_pending_delivery',
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning();
    for (const table of [
      'notification_settings',
      'uptime_monitors',
      'notification_outbox',
      'notification_deliveries',
    ]) {
      expect(await dump(table)).toMatch(new RegExp(`${SLACK_SECRET}|${DISCORD_SECRET}`));
    }

    // As on a server that has not applied it yet.
    await db.delete(dataMigrations).where(eq(dataMigrations.name, '0015_seal_webhook_urls'));
    expect(await applyDataMigrations(db)).toEqual(['0015_seal_webhook_urls']);
    for (const table of [
      'notification_settings',
      'uptime_monitors',
      'notification_outbox',
      'notification_deliveries',
    ]) {
      const text = await dump(table);
      expect(text, table).not.toContain(SLACK_SECRET);
      expect(text, table).not.toContain(DISCORD_SECRET);
    }
    expect(await applyDataMigrations(db)).toEqual([]);

    // Read back and delivered as before: the settings, the monitor, the pending delivery, the queued event.
    const read = await v1({ token: owner.token }).GET('/v1/notifications');
    expect(read.body.settings.uptimeWebhooks).toEqual([{ kind: 'slack', url: slack.url }]);
    const shown = await v1({ token: owner.token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      params: { path: { id: siteId, monitorId: monitor!.id } },
    });
    expect(JSON.parse(shown.body.monitor.alert_webhooks)).toEqual([{ kind: 'discord', url: discord.url }]);
    const before = { slack: slack.requests.length, discord: discord.requests.length };
    await dispatchEvents(db);
    // The legacy slack delivery and the monitor's discord webhook: the event's slack receiver (the
    // settings) is the delivery already there, its key now the URL's digest, so it is not added twice.
    expect(await deliverDue(db)).toMatchObject({ sent: 2, failed: 0 });
    expect(slack.requests.length - before.slack).toBe(1);
    expect(discord.requests.length - before.discord).toBe(1);
    const [delivered] = await db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, pendingDelivery!.id));
    expect(delivered).toMatchObject({ state: 'sent' });
  });
});
