import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { organizations } from '@/lib/db/schema';

/**
 * The organization's name as messages and reports show it. An organization deleted while its mail
 * or report was on the way still gets a sender line, not an error.
 */
export async function organizationName(db: Db, tenantId: string): Promise<string> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, tenantId))
    .limit(1);
  return row?.name ?? 'your organization';
}
