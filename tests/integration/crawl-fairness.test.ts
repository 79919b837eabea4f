import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CRAWLS_PER_TENANT } from '@/jobs/functions/crawl';
import { jobsIdle, stopJobRuntime } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { htmlPage, registerAndStart, startCrawlRuntime } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * Per-tenant crawl concurrency (issue 23 item 2) through the embedded runner, which honours the
 * crawl function's concurrency keys as Inngest does: one tenant's three slow crawls run at most
 * CRAWLS_PER_TENANT at a time, and another tenant's crawl, started after them, proceeds at once
 * and finishes while the first tenant's are still going.
 */

let db: Db;
let teardown: () => Promise<void>;
const slowSites: TestServer[] = [];
let quickSite: TestServer;
/** Requests each slow site is answering right now, and the most sites busy at once. */
const busy = new Map<string, number>();
let mostSitesAtOnce = 0;

const PAGES = 4;
const PAGE_DELAY_MS = 700;

function slowRoutes(name: string) {
  const track = (
    req: IncomingMessage,
    res: ServerResponse,
    page: { headers: Record<string, string>; body: string },
  ) => {
    busy.set(name, (busy.get(name) ?? 0) + 1);
    mostSitesAtOnce = Math.max(mostSitesAtOnce, [...busy.values()].filter((n) => n > 0).length);
    setTimeout(() => {
      busy.set(name, (busy.get(name) ?? 1) - 1);
      for (const [k, v] of Object.entries(page.headers)) res.setHeader(k, v);
      res.end(page.body);
    }, PAGE_DELAY_MS);
    void req;
  };
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}">page ${i}</a>`).join(' ');
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/': (req, res) => track(req, res, htmlPage(links, `${name} home`)),
    '/robots.txt': (_req, res) => {
      res.statusCode = 404;
      res.end();
    },
  };
  for (let i = 0; i < PAGES; i++)
    routes[`/p${i}`] = (req, res) => track(req, res, htmlPage(`page ${i}`, `${name} ${i}`));
  return routes;
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  for (const [i, host] of ['127.0.0.5', '127.0.0.6', '127.0.0.7'].entries())
    slowSites.push(await startServer(host, slowRoutes(`slow-${i}`)));
  quickSite = await startServer('127.0.0.8', { '/': htmlPage('quick'), '/robots.txt': { status: 404 } });
  await startCrawlRuntime();
});

afterAll(async () => {
  await stopJobRuntime();
  await Promise.all([...slowSites, quickSite].map((s) => s?.close()));
  await closeDispatchers();
  await teardown();
});

const stateOf = async (runId: string) =>
  (await db.select({ state: runs.state }).from(runs).where(eq(runs.id, runId)))[0]?.state;

describe("a tenant's simultaneous crawls", () => {
  it("run at most CRAWLS_PER_TENANT at a time, and another tenant's crawl proceeds meanwhile", async () => {
    const busyTenant = await signInOwner(db, 'owner@busy-crawls.test');
    const otherTenant = await signInOwner(db, 'owner@other-crawls.test');
    const theirs: string[] = [];
    for (const site of slowSites)
      theirs.push((await registerAndStart(busyTenant.token, site.url('/'), { a11yEnabled: false })).runId);
    const { runId: mine } = await registerAndStart(otherTenant.token, quickSite.url('/'), {
      a11yEnabled: false,
    });

    await vi.waitFor(async () => expect(await stateOf(mine)).toBe('completed'), {
      timeout: 30_000,
      interval: 100,
    });
    // The other tenant's crawl did not wait for the busy tenant's to drain.
    const theirStates = await Promise.all(theirs.map(stateOf));
    expect(theirStates.filter((s) => s !== 'completed').length).toBeGreaterThan(0);

    await jobsIdle();
    expect(await Promise.all(theirs.map(stateOf))).toEqual(['completed', 'completed', 'completed']);
    expect(mostSitesAtOnce).toBe(CRAWLS_PER_TENANT);
    for (const site of slowSites) expect(site.hits('/')).toBe(1);
  }, 90_000);
});
