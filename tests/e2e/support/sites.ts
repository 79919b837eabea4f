import { type APIRequestContext, expect } from '@playwright/test';

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
