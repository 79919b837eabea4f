import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { mailMessages, notificationOutbox } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { confirmByMail } from '../support/mail-consent';
import { type Receiver, startDiscord, startSlack } from '../support/notify-receivers';
import { nextRound, regionOutage, siteWithMonitorByApi } from '../support/uptime';

/*
 * Issue 15's "an outage and its recovery reach the uptime receivers once each", through the real
 * chain: a monitor saved through the API with its own alert webhook, probed by the four regions'
 * rounds until an incident opens and closes, the two events queued by the rounds, resolved against
 * the saved settings and delivered: the settings' address and Slack webhook and the monitor's
 * Discord webhook each get the outage once and the recovery once, however often delivery runs.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
let slack: Receiver;
let discord: Receiver;
const { outage, probers } = regionOutage(true);

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  [slack, discord] = await Promise.all([startSlack(), startDiscord()]);
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
});

afterAll(async () => {
  await Promise.all([slack?.close(), discord?.close(), target?.close()]);
  await closeDispatchers();
  await teardown();
});

describe('an outage and its recovery', () => {
  it('reach the uptime receivers once each, the monitor webhook on top', async () => {
    const owner = await signInOwner(db, 'owner@notify-uptime.test');
    const saved = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: {
        uptimeRecipients: [{ kind: 'email', email: 'oncall@notify-uptime.test' }],
        uptimeWebhooks: [{ kind: 'slack', url: slack.url }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // Saving the outside address sent its confirmation; it receives alerts once it confirmed.
    await confirmByMail(db, 'oncall@notify-uptime.test');
    const { siteId, monitorId } = await siteWithMonitorByApi(owner.token, 'notify-uptime.example', {
      url: target.url('/'),
      alertWebhooks: [{ kind: 'discord', url: discord.url }],
    });

    const round = async () => (await nextRound(db, probers, monitorId)).outcome;
    // The rounds run on the monitor's schedule, ahead of the wall clock: deliver as of an hour on.
    const clock = { now: () => Date.now() + 3600_000 };
    const deliverAll = async () => {
      await dispatchEvents(db, clock);
      while ((await deliverDue(db, clock)).claimed > 0);
    };

    // Every region cut off: down, one incident, its notification queued by the round.
    expect((await round()).verdict).toMatchObject({ status: 'down' });
    await deliverAll();
    // Back: healthy rounds until the incident closes.
    outage.down = false;
    let rounds = 0;
    for (; rounds < 5; rounds++) {
      const outcome = await round();
      if (outcome.events.some((e) => e.kind === 'recovered')) break;
    }
    expect(rounds).toBeLessThan(5);
    await deliverAll();
    await deliverAll();

    const events = await db
      .select({ kind: notificationOutbox.kind })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.site_id, siteId));
    expect(events.map((e) => e.kind).sort()).toEqual(['uptime-down', 'uptime-recovered']);
    expect(slack.requests.map((r) => r.body.text)).toEqual([
      expect.stringMatching(/^Down/),
      expect.stringMatching(/^Recovered/),
    ]);
    expect(discord.requests).toHaveLength(2);
    const mails = await db
      .select({ subject: mailMessages.subject })
      .from(mailMessages)
      .where(eq(mailMessages.to, 'oncall@notify-uptime.test'))
      .orderBy(mailMessages.created_at);
    expect(mails.map((m) => m.subject)).toEqual([
      "Please confirm: notifications from owner's sites on Sitewatch",
      expect.stringMatching(/^Down: /),
      expect.stringMatching(/^Recovered: /),
    ]);
  });
});
