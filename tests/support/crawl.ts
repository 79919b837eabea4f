import { afterAll, beforeAll, expect } from 'vitest';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import type { EngineTuning } from '@/lib/crawl/engine/tuning';
import type { Db } from '@/lib/db/client';
import { closeDispatchers } from '@/lib/net';
import { type RequestBody, v1 } from './api-client';
import { useTestDatabase } from './db';

export const quietLogger = { info() {}, warn() {}, error() {}, debug() {} };

/** The embedded runner with the crawl functions, as the server runs them. */
export function startCrawlRuntime(tuning: Partial<EngineTuning> = {}) {
  return startJobRuntime({
    functions: createCrawlFunctions(tuning),
    force: true,
    runner: { logger: quietLogger },
  });
}

/**
 * The frame of a crawl test file: a fresh database, the site it crawls and the embedded runner,
 * torn down in reverse order. Registers the file's beforeAll/afterAll; read `bed.db` and `bed.site`
 * inside tests.
 */
export function crawlTestbed<S extends { close(): Promise<void> }>(startSite: () => Promise<S>) {
  const bed = {} as { db: Db; site: S };
  let teardown: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const database = await useTestDatabase();
    bed.db = database.db;
    teardown = database.teardown;
    bed.site = await startSite();
    await startCrawlRuntime();
  });
  afterAll(async () => {
    await stopJobRuntime();
    await bed.site?.close();
    await closeDispatchers();
    await teardown();
  });
  return bed;
}

/** Registers `rootUrl` through the API, starts a crawl and waits for the runner to finish it. */
export async function registerAndCrawl(
  token: string,
  rootUrl: string,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const { siteId } = await registerAndStart(token, rootUrl, settings);
  await jobsIdle();
  return siteId;
}

/**
 * Registers `rootUrl` through the API and starts a crawl (`body`: the trigger's). Without a job
 * runtime nothing works the run: the test can seed and work it by hand.
 */
export async function registerAndStart(
  token: string,
  rootUrl: string,
  settings: Omit<RequestBody<'/v1/sites', 'post'>, 'rootUrl'> = {},
  body?: RequestBody<'/v1/sites/{id}/crawl', 'post'>,
): Promise<{ siteId: string; runId: string }> {
  const created = await v1({ token }).POST('/v1/sites', { body: { rootUrl, ...settings } });
  expect(created.status).toBe(201);
  const siteId = created.body.site.id as string;
  const started = await v1({ token }).POST('/v1/sites/{id}/crawl', {
    params: { path: { id: siteId } },
    body,
  });
  expect(started.status).toBe(202);
  return { siteId, runId: started.body.status.runId as string };
}

/** A small valid HTML page around `body`. */
export function htmlPage(body: string, title = 'Page') {
  return {
    headers: { 'content-type': 'text/html' },
    body: `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`,
  };
}
