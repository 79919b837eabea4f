import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA11yFunctions } from '@/jobs/functions/a11y';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import type { Db } from '@/lib/db/client';
import { notificationOutbox, runs } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { htmlPage, quietLogger } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/**
 * The crawl summary of a crawl that chains the accessibility pass (issue 24 item 11): queued when
 * the pass ends, and only when something changed, the scan compared with the previous one. Real
 * crawls and renders (Chromium) of a local site on the embedded runner.
 */
let db: Db;
let teardown: () => Promise<void>;
let token: string;
let server: TestServer;
let browsers: BrowserHolder;
let siteId: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ({ token } = await signInOwner(db, 'summary-a11y@example.com'));
  server = await startServer('127.0.0.1', {
    '/': htmlPage('<main><h1>Home</h1><a href="/b">B</a></main>', 'Home'),
    '/b': htmlPage('<main><h1>B</h1><p>Fine.</p></main>', 'Bravo'),
  });
  browsers = new BrowserHolder();
  await startJobRuntime({
    functions: [
      ...createCrawlFunctions({ requestTimeoutMs: 2000 }),
      ...createA11yFunctions({ browsers, batchSize: 2, batchesPerInvocation: 2 }),
    ],
    force: true,
    runner: { logger: quietLogger },
  });
  const created = await v1({ token }).POST('/v1/sites', {
    body: { rootUrl: server.url('/'), a11yEnabled: true },
  });
  expect(created.status).toBe(201);
  siteId = created.body.site.id;
});

afterAll(async () => {
  await stopJobRuntime();
  await browsers?.close();
  await server?.close();
  await closeDispatchers();
  await teardown();
});

/** A crawl through the API, its render pass chained, to the end. */
async function crawl(): Promise<string> {
  const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await jobsIdle();
  const runId = started.body.status.runId as string;
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  expect(run).toMatchObject({ state: 'completed', a11y_phase: 'done' });
  expect(run?.a11y_pages_scanned).toBe(2);
  return runId;
}

const summaries = async () =>
  (
    await db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.site_id, siteId), eq(notificationOutbox.kind, 'crawl-summary')))
      .orderBy(asc(notificationOutbox.created_at))
  ).map((row) => row.payload as Record<string, unknown>);

describe('the summary of a crawl with its accessibility pass', () => {
  it('is sent after the first, not after an unchanged one, and again when a violation appears', async () => {
    const first = await crawl();
    expect(await summaries()).toEqual([
      expect.objectContaining({ runId: first, a11y: expect.objectContaining({ pagesScanned: 2 }) }),
    ]);

    await crawl();
    expect(await summaries()).toHaveLength(1);

    // A button without a name on /b: no link or SEO issue changes, only the scan.
    server.route('/b', htmlPage('<main><h1>B</h1><button></button></main>', 'Bravo'));
    const third = await crawl();
    const all = await summaries();
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({
      runId: third,
      changes: { brokenNew: 0, brokenFixed: 0, seoNew: 0, seoFixed: 0, a11yChanged: true },
    });
  });
});
