import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { probeLocations } from '@/lib/uptime/probers';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import * as uptime from '../support/uptime';

/*
 * Issue 24 item 3, honest places: when the four probes run in this one process (no hosted regions),
 * the outage's webhook payload names no region and says `probedFrom: "server"`, and the mail says
 * the probes ran from this server, one location, not four continents. With the hosted regions
 * configured (UPTIME_PROBE_SECRET), the same outage names its failing regions. One function,
 * probeLocations(), decides for both. Real rounds against a local server cut off from every probe,
 * the events delivered to the owner (who receives uptime alerts from the start) through the outbox.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
const { outage, probers } = uptime.regionOutage(true);
// The rounds run on the monitor's schedule, ahead of the wall clock: deliver as of an hour on.
const clock = { now: () => Date.now() + 3600_000 };
const savedSecret = process.env.UPTIME_PROBE_SECRET;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
});
afterEach(() => {
  if (savedSecret === undefined) delete process.env.UPTIME_PROBE_SECRET;
  else process.env.UPTIME_PROBE_SECRET = savedSecret;
  resetConfig();
});
afterAll(async () => {
  await target?.close();
  await closeDispatchers();
  await teardown();
});

/** An owner's monitor that goes down in one round; the outage's payload and the mail the owner got. */
async function outageSeenBy(email: string) {
  const { tenantId } = await signInOwner(db, email);
  const principal: Principal = { tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  const siteId = await uptime.uptimeOnlySite(db, tenantId, `${email.split('@')[0]}.uptime-places.test`);
  const monitor = await uptime.minuteMonitor(db, principal, siteId, target.url('/'), Date.now());
  outage.down = true;
  const { outcome } = await uptime.nextRound(db, probers, monitor.id);
  expect(outcome.verdict).toMatchObject({ status: 'down' });
  const [down] = await uptime.outboxOf(db, monitor.id);
  await dispatchEvents(db, clock);
  while ((await deliverDue(db, clock)).claimed > 0);
  const [mail] = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.to, email), like(mailMessages.subject, 'Down:%')))
    .orderBy(desc(mailMessages.created_at))
    .limit(1);
  expect(mail, `an outage mail to ${email}`).toBeDefined();
  return { payload: down!.payload as Record<string, unknown>, mail: `${mail!.text}\n${mail!.html ?? ''}` };
}

const CONTINENTS = /North America|Europe|Asia|Oceania/;

describe('an outage seen from this one server', () => {
  it('names no region in the payload and says in the mail that the probes ran from this server', async () => {
    delete process.env.UPTIME_PROBE_SECRET;
    resetConfig();
    expect(probeLocations()).toBe('server');
    const { payload, mail } = await outageSeenBy('one@uptime-places.test');
    expect(payload).toMatchObject({ probedFrom: 'server', failingRegions: [] });
    expect(mail).toContain('confirmed by several probes from this Sitewatch server (one location)');
    expect(mail).toContain('this Sitewatch server (one location)');
    expect(mail).not.toMatch(CONTINENTS);
    expect(mail).not.toMatch(/\d regions/);
  });
});

describe('an outage seen from the hosted regions', () => {
  it('names the failing regions in the payload and the mail', async () => {
    process.env.UPTIME_PROBE_SECRET = 'h'.repeat(40);
    resetConfig();
    expect(probeLocations()).toBe('regions');
    const { payload, mail } = await outageSeenBy('four@uptime-places.test');
    expect(payload).toMatchObject({ probedFrom: 'regions', failingRegions: ['na', 'eu', 'as', 'oc'] });
    expect(mail).toContain('confirmed from 4 regions');
    expect(mail).toContain('North America, Europe, Asia, Oceania');
    expect(mail).not.toContain('one location');
  });
});
