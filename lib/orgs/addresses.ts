import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { members, users } from '@/lib/db/schema';

/**
 * Whether an organization owns an address: it is the sign-in address of one of its members. Mail to
 * such an address needs no confirmation (lib/notify/consent.ts); any other address is outside the
 * organization, and what the organization sends there is held to tighter rules.
 */

/** How addresses are compared: trimmed and lower-cased. */
export const normalizeAddress = (address: string) => address.trim().toLowerCase();

/** The given addresses (normalized) that belong to members of the organization. */
export async function memberAddressesAmong(
  db: Db,
  tenantId: string,
  addresses: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(addresses.map(normalizeAddress))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ email: sql<string>`lower(${users.email})` })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, tenantId), inArray(sql`lower(${users.email})`, wanted)));
  return new Set(rows.map((r) => r.email));
}

/** Whether the address is a member's of the organization. */
export async function ownsAddress(
  db: Db,
  { tenantId, address }: { tenantId: string; address: string },
): Promise<boolean> {
  return (await memberAddressesAmong(db, tenantId, [address])).size > 0;
}
