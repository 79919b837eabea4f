import type { Db } from '@/lib/db/client';
import { sites, uptimeMonitors } from '@/lib/db/schema';

/** A site row written directly, for tests about something else than registering sites. */
export async function insertSite(
  db: Db,
  tenantId: string,
  host: string,
  overrides: Partial<typeof sites.$inferInsert> = {},
): Promise<string> {
  const [row] = await db
    .insert(sites)
    .values({
      tenant_id: tenantId,
      hostname: host,
      root_url: `https://${host}/`,
      cadence_minutes: 10080,
      max_pages: 5000,
      max_concurrency: 100,
      enabled: 1,
      created_at: Date.now(),
      scanner_enabled: 1,
      a11y_enabled: 0,
      performance_enabled: 1,
      uptime_enabled: 1,
      seo_enabled: 1,
      ...overrides,
    })
    .returning({ id: sites.id });
  return row!.id;
}

/** An uptime monitor row written directly (no round runs), for tests that read monitors rather than probe them. */
export async function insertMonitor(
  db: Db,
  tenantId: string,
  siteId: string,
  overrides: Partial<typeof uptimeMonitors.$inferInsert> = {},
): Promise<string> {
  const now = Date.now();
  const [row] = await db
    .insert(uptimeMonitors)
    .values({
      tenant_id: tenantId,
      site_id: siteId,
      url: 'https://fixture.example/health',
      enabled: 1,
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .returning({ id: uptimeMonitors.id });
  return row!.id;
}
