import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as notificationsRoute from '@/app/api/v1/notifications/route';
import * as siteRoute from '@/app/api/v1/sites/[id]/route';
import * as monitorsRoute from '@/app/api/v1/sites/[id]/uptime/monitors/route';
import * as sitesRoute from '@/app/api/v1/sites/route';
import type { Db } from '@/lib/db/client';
import { mailMessages, notificationOutbox } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { runDueRounds } from '@/lib/uptime/coordinator';
import { embeddedProbers, type RegionFault } from '@/lib/uptime/regions';
import { useTestDatabase } from '../support/db';
import { call, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { type Receiver, startDiscord, startSlack } from '../support/notify-receivers';
import { monitorRow } from '../support/uptime';

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
let cutOff = true;
const fault: RegionFault = () => (cutOff ? 'cut off (test fault)' : null);
const probers = () =>
  embeddedProbers({ retryDelayMs: 10, faults: { na: fault, eu: fault, as: fault, oc: fault } });

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
    const site = await call(sitesRoute.POST, {
      path: '/api/v1/sites',
      token: owner.token,
      body: { rootUrl: 'https://notify-uptime.example/' },
    });
    const siteId = site.body.site.id as string;
    await call(siteRoute.PATCH, {
      method: 'PATCH',
      path: `/api/v1/sites/${siteId}`,
      token: owner.token,
      params: { id: siteId },
      body: { uptimeEnabled: true },
    });
    const saved = await call(notificationsRoute.PATCH, {
      method: 'PATCH',
      path: '/api/v1/notifications',
      token: owner.token,
      body: {
        uptimeRecipients: [{ kind: 'email', email: 'oncall@notify-uptime.test' }],
        uptimeWebhooks: [{ kind: 'slack', url: slack.url }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const created = await call(monitorsRoute.POST, {
      path: `/api/v1/sites/${siteId}/uptime/monitors`,
      token: owner.token,
      params: { id: siteId },
      body: { url: target.url('/'), alertWebhooks: [{ kind: 'discord', url: discord.url }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const monitorId = created.body.monitor.id as string;

    const round = async () => {
      const finished = await runDueRounds(db, probers(), {
        now: (await monitorRow(db, monitorId)).next_probe_at!,
      });
      return finished.find((f) => f.round.monitorId === monitorId)!.outcome;
    };
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
    cutOff = false;
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
      .where(eq(mailMessages.to, 'oncall@notify-uptime.test'));
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Down: /),
      expect.stringMatching(/^Recovered: /),
    ]);
  });
});
