import { type APIRequestContext, expect, type Page } from '@playwright/test';

/**
 * Registers a site with only its Uptime app on (no crawl, scan or field data to wait for), as the
 * signed-in person of `request`, and answers its id. The specs of monitors, heartbeats, maintenance
 * and status pages start from one.
 */
export async function uptimeOnlySite(request: APIRequestContext, rootUrl: string): Promise<string> {
  const res = await request.post('/v1/sites', {
    data: { rootUrl, scannerEnabled: false, seoEnabled: false, performanceEnabled: false },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { site: { id: string } }).site.id;
}

/** The state of the site's latest crawl (null before its first), as its status endpoint says. */
export async function latestRunState(page: Page, siteId: string): Promise<string | null> {
  const res = await page.request.get(`/v1/sites/${siteId}/status`);
  const body = (await res.json()) as { latestRun: { state: string } | null };
  return body.latestRun?.state ?? null;
}
