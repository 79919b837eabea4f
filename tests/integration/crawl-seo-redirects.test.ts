import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as crawlRoute from '@/app/api/v1/sites/[id]/crawl/route';
import * as seoReportRoute from '@/app/api/v1/sites/[id]/seo-report/route';
import * as sitesRoute from '@/app/api/v1/sites/route';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { closeDispatchers } from '@/lib/net';
import { useTestDatabase } from '../support/db';
import { call, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const html = (body: string) => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html lang="en"><head><title>t</title></head><body>${body}</body></html>`,
});

let db: Db;
let teardown: () => Promise<void>;
let site: TestServer;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  site = await startServer('127.0.0.1', {
    '/': html('<a href="/old">Old</a> <a href="/renamed">Renamed</a> <a href="/kept">Kept</a>'),
    // /new is reachable only through /old's redirect.
    '/old': { status: 301, headers: { location: '/new' } },
    '/new': html('<p>new</p>'),
    // /kept is reached through /renamed's redirect too, but the home page also links it directly.
    '/renamed': { status: 308, headers: { location: '/kept' } },
    '/kept': html('<p>kept</p>'),
  });
  await startJobRuntime({ functions: createCrawlFunctions({}), force: true, runner: { logger: quiet } });
});

afterAll(async () => {
  await stopJobRuntime();
  await site.close();
  await closeDispatchers();
  await teardown();
});

describe('SEO: pages reached only through redirects', () => {
  it('flags a page no crawled page links to directly, and not one that is also linked directly', async () => {
    const { token } = await signInOwner(db, 'redirects@example.com');
    const created = await call(sitesRoute.POST, {
      path: '/api/v1/sites',
      token,
      body: { rootUrl: site.url() },
    });
    const siteId = created.body.site.id as string;
    const started = await call(crawlRoute.POST, {
      method: 'POST',
      path: `/api/v1/sites/${siteId}/crawl`,
      token,
      params: { id: siteId },
    });
    expect(started.status).toBe(202);
    await jobsIdle();

    const report = await call(seoReportRoute.GET, {
      path: `/api/v1/sites/${siteId}/seo-report`,
      token,
      params: { id: siteId },
    });
    expect(report.status).toBe(200);
    const redirectOnly = (report.body.checks as { check: string; pages: { pageUrl: string }[] }[]).find(
      (c) => c.check === 'redirect-only',
    );
    expect(redirectOnly?.pages.map((p) => p.pageUrl)).toEqual([site.url('/new')]);
  });
});
