import { APIError } from 'better-auth/api';
import { and, count, eq, gt, like } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { SIGN_IN_CODE_SUBJECT_END } from '@/lib/email/templates';

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
        // The stored subject has the code redacted; its ending still says what the mail was.
        like(mailMessages.subject, `%${SIGN_IN_CODE_SUBJECT_END}`),
      ),
    );
  return row?.n ?? 0;
}

/** A 429 once the address has had its codes for the window. */
export async function refuseWhenCodeCapReached(db: Db, email: string): Promise<void> {
  if ((await codesRecentlySentTo(db, email.toLowerCase())) >= CODES_PER_ADDRESS) {
    throw new APIError('TOO_MANY_REQUESTS', {
      message: 'too many sign-in codes were sent to this address; wait a few minutes and try again',
    });
  }
}
