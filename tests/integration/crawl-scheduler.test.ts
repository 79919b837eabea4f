import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlEvents } from '@/jobs/crawl-events';
import { crawlSchedulerFunction } from '@/jobs/functions/scheduler';
import type { Clock } from '@/jobs/runtime/clock';
import { EmbeddedRunner } from '@/jobs/runtime/embedded';
import { setOverage } from '@/lib/billing/settings';
import { advanceDue, runSchedulerTick } from '@/lib/crawl/runs/scheduler';
import type { Db } from '@/lib/db/client';
import { runs, sites } from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

let db: Db;
let teardown: () => Promise<void>;
let token: string;

async function createSite(body: RequestBody<'/v1/sites', 'post'>): Promise<string> {
  const created = await v1({ token }).POST('/v1/sites', { body });
  expect(created.status).toBe(201);
  return created.body.site.id;
}

async function site(id: string) {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  if (!row) throw new Error(`no site ${id}`);
  return row;
}

const crawlsOf = (ids: string[]) => db.select().from(runs).where(inArray(runs.site_id, ids));

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'scheduler@example.com');
  token = owner.token;
  await setOverage(db, owner.tenantId, true);
});

afterAll(async () => {
  await teardown();
});

describe('advanceDue', () => {
  it('moves by whole cadences past now, keeping the clock phase', () => {
    const due = Date.UTC(2026, 0, 5, 2, 0);
    expect(advanceDue(due, 1440, due)).toBe(due + DAY);
    expect(advanceDue(due, 1440, due + 30 * MINUTE)).toBe(due + DAY);
    // A week of downtime: one crawl now, the next at the usual time tomorrow, no burst.
    expect(advanceDue(due, 1440, due + 7 * DAY + 5 * MINUTE)).toBe(due + 8 * DAY);
  });
});

describe('the scheduler tick', () => {
  it('starts due, enabled, unpaused sites with a crawl app and advances their clocks', async () => {
    const due = await createSite({ rootUrl: 'http://127.0.0.1:11/', cadenceMinutes: 1440 });
    const a11yOnly = await createSite({
      rootUrl: 'http://127.0.0.1:12/',
      scannerEnabled: false,
      a11yEnabled: true,
    });
    const noCrawlApp = await createSite({ rootUrl: 'http://127.0.0.1:13/', scannerEnabled: false });
    const later = await createSite({ rootUrl: 'http://127.0.0.1:14/' });
    const all = [due, a11yOnly, noCrawlApp, later];

    const now = Date.now() + MINUTE;
    await db
      .update(sites)
      .set({ next_run_at: now + DAY })
      .where(eq(sites.id, later));
    const dueAt = (await site(due)).next_run_at as number;

    const tick = await runSchedulerTick(db, now, crawlEvents);
    const started = await crawlsOf(all);
    expect(started.map((r) => r.site_id).sort()).toEqual([due, a11yOnly].sort());
    expect(started.every((r) => r.trigger === 'schedule' && r.state === 'running')).toBe(true);
    expect(tick.started.sort()).toEqual(started.map((r) => r.id).sort());
    // The a11y-only site's scheduled crawl chains the accessibility pass.
    expect(started.find((r) => r.site_id === a11yOnly)?.chain_a11y).toBe(1);

    expect((await site(due)).next_run_at).toBe(dueAt + DAY);
    expect((await site(due)).last_run_at).toBe(now);
    expect((await site(noCrawlApp)).enabled).toBe(0);
    expect((await site(later)).next_run_at).toBe(now + DAY);

    // The same minute again starts nothing: the clocks moved.
    expect((await runSchedulerTick(db, now, crawlEvents)).started).toEqual([]);
  });

  it('a manual crawl right after registering is the first crawl: one crawl, the next one cadence later', async () => {
    const id = await createSite({ rootUrl: 'http://127.0.0.1:15/', cadenceMinutes: 2880 });
    const before = await site(id);
    expect(before).toMatchObject({ last_run_at: null, enabled: 1 });
    const manual = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id } } });
    expect(manual.status).toBe(202);
    const after = await site(id);
    const [run] = await crawlsOf([id]);
    expect(after.last_run_at).toBe(run?.started_at);
    expect(after.next_run_at).toBe((run?.started_at as number) + 2 * DAY);

    // The scheduler, a minute on, finds nothing due: no second "first" crawl, no second usage row.
    const tick = await runSchedulerTick(db, (before.next_run_at as number) + MINUTE, crawlEvents);
    expect(tick.started).toEqual([]);
    expect(await crawlsOf([id])).toHaveLength(1);
  });

  it('once a site has run, a manual crawl leaves the clock alone, and a due site with a crawl running is not doubled', async () => {
    const id = await createSite({ rootUrl: 'http://127.0.0.1:17/', cadenceMinutes: 2880 });
    const ranAt = Date.now() - DAY;
    await db
      .update(sites)
      .set({ last_run_at: ranAt, next_run_at: ranAt + 2 * DAY })
      .where(eq(sites.id, id));
    const before = await site(id);
    const manual = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id } } });
    expect(manual.status).toBe(202);
    expect(await site(id)).toMatchObject({ last_run_at: ranAt, next_run_at: before.next_run_at });

    const now = (before.next_run_at as number) + MINUTE;
    const tick = await runSchedulerTick(db, now, crawlEvents);
    expect(tick.started).not.toContain(manual.body.status.runId);
    expect(await crawlsOf([id])).toHaveLength(1);
    // The running crawl serves the due time: the clock moves on by the cadence.
    expect((await site(id)).next_run_at).toBe((before.next_run_at as number) + 2 * DAY);
  });

  it('runs every minute in the embedded runner, on the runner clock', async () => {
    const id = await createSite({ rootUrl: 'http://127.0.0.1:16/' });
    const dueAt = (await site(id)).next_run_at as number;
    const clock: Clock = {
      now: () => dueAt + 2 * MINUTE,
      setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    const runner = new EmbeddedRunner([crawlSchedulerFunction], { clock, logger: quiet });
    runner.fireCron(new Date(dueAt + 2 * MINUTE));
    await runner.idle();
    await runner.stop();
    const [run] = await crawlsOf([id]);
    // The tick runs at the start of the cron minute, as the runner clock sees it.
    const minute = Math.floor((dueAt + 2 * MINUTE) / MINUTE) * MINUTE;
    expect(run).toMatchObject({ trigger: 'schedule', state: 'running', started_at: minute });
  });
});
