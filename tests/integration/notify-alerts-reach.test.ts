import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { v1 } from '../support/api-client';
import { authPost } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { type Receiver, startSlack } from '../support/notify-receivers';
import { nextRound, regionOutage, siteWithMonitorByApi } from '../support/uptime';

/*
 * Issue 24 item 1, "alerts reach someone": a new organization's owner receives uptime and
 * performance alerts without touching the settings; the monitor's live read says how many an outage
 * would reach (0: nobody) and, during an outage, whom its alert actually went to, read from the
 * deliveries: named member and channel, a webhook by host, or nobody at all.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
let slack: Receiver;
const { outage, probers } = regionOutage();
// The rounds run on the monitor's schedule, ahead of the wall clock: deliver as of an hour on.
const clock = { now: () => Date.now() + 3600_000 };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  slack = await startSlack();
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
});

afterAll(async () => {
  await Promise.all([slack?.close(), target?.close()]);
  await closeDispatchers();
  await teardown();
});

async function siteWithMonitor(owner: { token: string }, host: string) {
  const { siteId, monitorId } = await siteWithMonitorByApi(owner.token, host, { url: target.url('/') });
  const live = async () => {
    const res = await v1({ token: owner.token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}/live', {
      params: { path: { id: siteId, monitorId } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const goDown = async () => {
    outage.down = true;
    const { outcome } = await nextRound(db, probers, monitorId);
    expect(outcome.verdict).toMatchObject({ status: 'down' });
  };
  return { siteId, monitorId, live, goDown };
}

describe('a new organization', () => {
  it('ticks its owner for uptime and performance alerts, and one made through the API its creator', async () => {
    const owner = await signInOwner(db, 'first@alerts-reach.test');
    const org = await v1({ token: owner.token }).GET('/v1/notifications');
    const theOwner = [{ kind: 'user', userId: owner.userId }];
    expect(org.body.settings.uptimeRecipients).toEqual(theOwner);
    expect(org.body.settings.perfAlertRecipients).toEqual(theOwner);
    expect(org.body.settings.crawlReportRecipients).toEqual([]);

    const made = await authPost(
      '/organization/create',
      { name: 'Second', slug: `second-${owner.userId.slice(0, 8)}` },
      owner.token,
    );
    expect(made.status, await made.clone().text()).toBe(200);
    const second = (await made.json()) as { id: string };
    const switched = await authPost('/organization/set-active', { organizationId: second.id }, owner.token);
    expect(switched.status).toBe(200);
    const read = await v1({ token: owner.token }).GET('/v1/notifications');
    expect(read.body.settings.uptimeRecipients).toEqual(theOwner);
    expect(read.body.settings.perfAlertRecipients).toEqual(theOwner);
  });
});

describe('the monitor live read', () => {
  it('names who the outage alert went to, by name and channel, from its deliveries', async () => {
    const owner = await signInOwner(db, 'ana@alerts-reach.test');
    await db.update(users).set({ name: 'Ana Lee' }).where(eq(users.id, owner.userId));
    const saved = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: { uptimeWebhooks: [{ kind: 'slack', url: slack.url }] },
    });
    expect(saved.status).toBe(200);
    const { live, goDown } = await siteWithMonitor(owner, 'named.alerts-reach.example');
    const before = await live();
    expect(before.alerting).toEqual({ outageReceivers: 2, openIncident: null });

    await goDown();
    expect((await live()).alerting.openIncident).toEqual({ status: 'queued', receivers: [] });
    await dispatchEvents(db, clock);
    const host = new URL(slack.url).host;
    expect((await live()).alerting.openIncident).toEqual({
      status: 'resolved',
      receivers: [
        { type: 'member', name: 'Ana Lee', channel: 'email', state: 'pending' },
        { type: 'webhook', name: host, channel: 'slack', state: 'pending' },
      ],
    });
    while ((await deliverDue(db, clock)).claimed > 0);
    const after = (await live()).alerting.openIncident;
    expect(after.receivers.map((r: { state: string }) => r.state)).toEqual(['sent', 'sent']);
    // The webhook's path (its credential) is never part of the read.
    expect(JSON.stringify(after)).not.toContain(new URL(slack.url).pathname);
    outage.down = false;
  });

  it('says nobody would be, and nobody was, alerted when no one receives uptime alerts', async () => {
    const owner = await signInOwner(db, 'alone@alerts-reach.test');
    const cleared = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: { uptimeRecipients: [] },
    });
    expect(cleared.status).toBe(200);
    const { live, goDown } = await siteWithMonitor(owner, 'nobody.alerts-reach.example');
    expect((await live()).alerting).toEqual({ outageReceivers: 0, openIncident: null });
    await goDown();
    await dispatchEvents(db, clock);
    expect((await live()).alerting).toEqual({
      outageReceivers: 0,
      openIncident: { status: 'resolved', receivers: [] },
    });
    outage.down = false;
  });
});
