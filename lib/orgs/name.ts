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

/** The longest organization name a mail shows (in characters; a longer one ends in "…"). */
export const MAIL_ORGANIZATION_NAME_CAP = 60;

// Line breaks and other control characters (a CR/LF would end a mail header), Unicode line and
// paragraph separators, and the bidirectional overrides and isolates that make text read in another
// order than it is stored ("moc.knab" shown as "bank.com").
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+/gu;

/** Whether a name holds characters no organization name may have (a rename refuses them). */
export function hasUnsafeCharacters(name: string): boolean {
  return new RegExp(UNSAFE.source, 'u').test(name);
}

/**
 * The organization's name as mail and chat messages and the monthly report show it: one line with no control or
 * direction-changing characters, whitespace runs collapsed, at most MAIL_ORGANIZATION_NAME_CAP
 * characters. Anyone who signs up names an organization, so the name is the sender's words inside
 * a message from the operator's domain: it is kept short and plain (the HTML is escaped where it is
 * rendered).
 */
export function mailOrganizationName(name: string): string {
  const plain = name.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  if (plain === '') return 'an organization';
  const chars = [...plain];
  return chars.length <= MAIL_ORGANIZATION_NAME_CAP
    ? plain
    : `${chars
        .slice(0, MAIL_ORGANIZATION_NAME_CAP - 1)
        .join('')
        .trimEnd()}…`;
}
