import { and, count, eq, gt, like } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';

/**
 * Sign-in codes mailed to one address within the window. The per-client-address rate limit stops one
 * client; this stops many clients (or a spoofed forwarding header) from flooding one inbox.
 */
export const CODES_PER_ADDRESS = 5;
export const CODE_WINDOW_MS = 15 * 60_000;

export async function codesRecentlySentTo(db: Db, email: string, now = Date.now()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(mailMessages)
    .where(
      and(
        eq(mailMessages.to, email),
        gt(mailMessages.created_at, now - CODE_WINDOW_MS),
        like(mailMessages.subject, '% is your Sitewatch sign-in code'),
      ),
    );
  return row?.n ?? 0;
}
