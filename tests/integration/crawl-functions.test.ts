import { InngestTestEngine } from '@inngest/test';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlEvents } from '@/jobs/crawl-events';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { startCrawl } from '@/lib/crawl/runs/run';
import type { Db } from '@/lib/db/client';
import { runs, sites, usageLedger } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { type SyntheticSite, startSyntheticSite } from '../support/test-site';

/**
 * The crawl functions under Inngest's own execution engine (@inngest/test drives the SDK's step
 * protocol in-process): the same definitions the embedded runner runs in the other crawl tests.
 */
let db: Db;
let teardown: () => Promise<void>;
let synthetic: SyntheticSite;
let runId: string;
const [crawlRun, crawlFinalize] = createCrawlFunctions({ requestTimeoutMs: 2000 });

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const { token } = await signInOwner(db, 'functions@example.com');
  synthetic = await startSyntheticSite({ pages: 30, extraLinks: 3, brokenEvery: 7 });
  const created = await v1({ token }).POST('/v1/sites', { body: { rootUrl: synthetic.rootUrl } });
  const [site] = await db.select().from(sites).where(eq(sites.id, created.body.site.id));
  if (!site) throw new Error('no site');
  runId = (await startCrawl(db, site, { trigger: 'manual', chainA11y: false, events: crawlEvents })).run.id;
});

afterAll(async () => {
  await synthetic.close();
  await closeDispatchers();
  await teardown();
});

describe('crawl functions under @inngest/test', () => {
  it('crawl-run seeds, works the frontier in steps and hands over to finalize', async () => {
    const engine = new InngestTestEngine({
      function: crawlRun,
      events: [{ name: 'crawl/requested', data: { siteId: 's', tenantId: 't', runId, chainA11y: false } }],
    });
    // No Inngest to receive the hand-over here: the sendEvent step is mocked, and asserted below.
    const { result, ctx } = await engine.execute({
      steps: [{ id: 'finalize', handler: () => ({ ids: ['e1'] }) }],
    });
    expect(result).toEqual({ runId, outcome: 'exhausted' });
    expect(ctx.step.run).toHaveBeenCalledWith('seed', expect.any(Function));
    expect(ctx.step.sendEvent).toHaveBeenCalledWith('finalize', { name: 'crawl/finalize', data: { runId } });
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({
      state: 'running',
      phase: 'crawling',
      pages_crawled: synthetic.expected.pages,
    });
  });

  it('crawl-finalize completes the run once, however often it runs', async () => {
    const event = { name: 'crawl/finalize', data: { runId } };
    // No Inngest to receive the summary's delivery event here: the sendEvent step is mocked, and asserted.
    const notify = { id: 'notify', handler: () => ({ ids: ['n1'] }) };
    const first = await new InngestTestEngine({
      function: crawlFinalize,
      events: [event],
      steps: [notify],
    }).execute();
    expect(first.result).toMatchObject({ finalizedNow: true, state: 'completed', allowanceNotified: false });
    expect(first.ctx.step.sendEvent).toHaveBeenCalledWith('notify', {
      name: 'notify/queued',
      data: { reason: 'crawl-summary' },
    });
    const second = await new InngestTestEngine({
      function: crawlFinalize,
      events: [event],
      steps: [notify],
    }).execute();
    expect(second.result).toMatchObject({ finalizedNow: false, state: 'completed' });
    // Finalized once: the summary's delivery is asked for once.
    expect(second.ctx.step.sendEvent).not.toHaveBeenCalledWith('notify', expect.anything());
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({
      broken_count: synthetic.expected.broken.length,
      pages_crawled: synthetic.expected.pages,
    });
    expect(await db.select().from(usageLedger).where(eq(usageLedger.run_id, runId))).toHaveLength(1);
  });
});
