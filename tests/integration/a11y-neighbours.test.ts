import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA11yFunctions } from '@/jobs/functions/a11y';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import { RENDER_SLOTS_PER_BROWSER } from '@/lib/a11y/engine/slots';
import type { Db } from '@/lib/db/client';
import { a11yPages, organizations, runs } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { quietLogger } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { type HostileSite, startHostileSite } from '../support/hostile-site';
import { insertApiKey } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/**
 * Noisy neighbours in the render pass (issue 23 item 7): one worker's browser renders the passes of
 * many tenants at once, as the embedded runner does (one pass per tenant at a time, no bound across
 * tenants). Tenant 0's site is the hostile one (tests/support/hostile-site.ts: endless loops and
 * downloads, 4 GB allocations, a million nodes, ...); the other tenants' sites are ordinary pages.
 * All crawls start together, so every pass renders in the same window, through the job functions
 * and real Chromium. Every calm tenant's page must come out scanned: what a hostile page does may
 * cost its own tenant's pages only.
 *
 * Before render slots (lib/a11y/engine/slots.ts), the passes put all their pages in the browser at once
 * (4 per pass): on a loaded machine most calm pages ran out of their time limit before their tab
 * opened ("the browser did not open a page within 30 s") or while axe ran; on a quiet one they got
 * through, which is why the test also counts the pages the browser loads at once.
 */

/** Tenants with ordinary sites beside the hostile one, and their pages. */
const CALM_TENANTS = 19;
const CALM_PAGES = 10;

let db: Db;
let teardown: () => Promise<void>;
let hostile: HostileSite;
let calmSite: TestServer;
let browsers: BrowserHolder;
const tenants: { tenantId: string; apiKey: string; siteId: string; hostile: boolean }[] = [];
/** Calm pages the browser is loading now, and the most at once. */
let renderingNow = 0;
let mostRenderingAtOnce = 0;

/** Tenant `t`'s ordinary pages: a ring under /t{t}/ (its site's root is /t{t}/). */
function calmPage(t: string, i: number) {
  const link = (n: number) => `<a href="p${n % CALM_PAGES}">page ${n % CALM_PAGES}</a>`;
  return {
    headers: { 'content-type': 'text/html' },
    body: `<!doctype html><html lang="en"><head><title>Tenant ${t}, page ${i}</title></head><body><main><h1>Page ${i}</h1><p>Text of page ${i}.</p>${link(i + 1)} ${link(i + 2)}</main></body></html>`,
  };
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  hostile = await startHostileSite();
  calmSite = await startServer('127.0.0.3', {
    '*': (req, res) => {
      const m = /^\/t(\d+)\/(?:p(\d+))?$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
      const i = Number(m?.[2] ?? 0);
      if (!m || i >= CALM_PAGES) return void res.writeHead(404).end('not found');
      const page = calmPage(m[1] as string, i);
      // The browser's requests (its user agent is Chromium's; the crawler's is not) are answered
      // after a moment, so the pages the browser loads at once show here as requests open at once.
      if (!/Chrome/.test(req.headers['user-agent'] ?? ''))
        return void res.writeHead(200, page.headers).end(page.body);
      renderingNow += 1;
      mostRenderingAtOnce = Math.max(mostRenderingAtOnce, renderingNow);
      setTimeout(() => {
        renderingNow -= 1;
        res.writeHead(200, page.headers).end(page.body);
      }, 300);
    },
  });
  browsers = new BrowserHolder();
  await startJobRuntime({
    functions: [
      ...createCrawlFunctions({ requestTimeoutMs: 2000 }),
      // The worker's browser, shared by every pass, as jobs/functions/a11y.ts's is.
      ...createA11yFunctions({ browsers }),
    ],
    force: true,
    runner: { logger: quietLogger },
  });
  for (let t = 0; t <= CALM_TENANTS; t++) {
    const tenantId = `neighbour-${t}`;
    await db.insert(organizations).values({ id: tenantId, name: `Neighbour ${t}`, slug: tenantId });
    const apiKey = await insertApiKey(db, tenantId);
    const rootUrl = t === 0 ? hostile.server.url('/') : calmSite.url(`/t${t}/`);
    const created = await v1({ apiKey }).POST('/v1/sites', {
      body: { rootUrl, a11yEnabled: true, performanceEnabled: false },
    });
    expect(created.status).toBe(201);
    tenants.push({ tenantId, apiKey, siteId: created.body.site.id, hostile: t === 0 });
  }
}, 120_000);

afterAll(async () => {
  await stopJobRuntime();
  await browsers?.close();
  await hostile?.close();
  await calmSite?.close();
  await closeDispatchers();
  await teardown();
});

describe('render passes of many tenants beside a hostile one', () => {
  it("scans every page of the calm tenants while the hostile tenant's pages run", async () => {
    const started = await Promise.all(
      tenants.map((t) =>
        v1({ apiKey: t.apiKey }).POST('/v1/sites/{id}/crawl', { params: { path: { id: t.siteId } } }),
      ),
    );
    expect(started.map((s) => s.status)).toEqual(tenants.map(() => 202));
    await jobsIdle();

    const calm = tenants.filter((t) => !t.hostile).map((t) => t.tenantId);
    const passes = await db
      .select({ tenantId: runs.tenant_id, phase: runs.a11y_phase })
      .from(runs)
      .where(and(inArray(runs.tenant_id, calm), eq(runs.kind, 'crawl')));
    expect(passes).toHaveLength(CALM_TENANTS);
    expect(passes.every((p) => p.phase === 'done')).toBe(true);

    const pages = await db
      .select({
        tenantId: a11yPages.tenant_id,
        url: a11yPages.page_url,
        status: a11yPages.status,
        reason: a11yPages.reason,
      })
      .from(a11yPages)
      .where(inArray(a11yPages.tenant_id, calm));
    const notScanned = pages.filter((p) => p.status !== 'scanned').map((p) => `${p.url}: ${p.reason}`);
    expect(notScanned).toEqual([]);
    // Each site's root and its ten pages.
    expect(pages).toHaveLength(CALM_TENANTS * (CALM_PAGES + 1));

    // The browser loaded at most its slots' worth of pages at once (the calm ones, beside the
    // hostile tenant's), not 4 per pass: 19 passes put up to 76 in it before.
    expect(mostRenderingAtOnce).toBeGreaterThan(1);
    expect(mostRenderingAtOnce).toBeLessThanOrEqual(RENDER_SLOTS_PER_BROWSER);

    // The hostile tenant's own pages did end not scanned (its pass ran beside the others).
    const own = await db
      .select({ status: a11yPages.status })
      .from(a11yPages)
      .where(eq(a11yPages.tenant_id, tenants[0]?.tenantId as string));
    expect(own.filter((p) => p.status === 'not-scanned').length).toBeGreaterThan(5);
  }, 600_000);
});
