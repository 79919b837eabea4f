import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';

/** A site row written directly, for tests about something else than registering sites. */
export async function insertSite(db: Db, tenantId: string, host: string): Promise<string> {
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
    })
    .returning({ id: sites.id });
  return row!.id;
}
