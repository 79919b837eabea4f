import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { members, organizations } from '@/lib/db/schema';

/** Names the first organization after the address's local part: "ada@example.com" -> "ada's sites". */
export function personalOrganizationName(email: string): string {
  const local = email.split('@')[0] || 'My';
  return `${local}'s sites`;
}

export async function createPersonalOrganization(db: Db, input: { userId: string; email: string }) {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values({
      id,
      name: personalOrganizationName(input.email),
      // Slugs are unique and user-facing only as a hint; the random suffix keeps them so.
      slug: `${slugify(input.email.split('@')[0] ?? 'org')}-${id.slice(0, 8)}`,
    });
    await tx
      .insert(members)
      .values({ id: randomUUID(), organizationId: id, userId: input.userId, role: 'owner' });
  });
  return id;
}

export function slugify(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'org'
  );
}
