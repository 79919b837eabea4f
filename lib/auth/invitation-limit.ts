import { APIError } from 'better-auth/api';
import type { Db } from '@/lib/db/client';
import { ownsAddress } from '@/lib/orgs/addresses';
import { RateLimitedError } from '@/lib/ratelimit/counter';
import { takeOutsideSend } from '@/lib/ratelimit/sends';

/*
 * An invitation is a mail from Sitewatch's sending domain, carrying a name the organization chose, to
 * an address it does not own yet: it counts against the organization's outside-send limit like a test
 * send to a stranger (lib/ratelimit/sends.ts), so inviting is no relay either.
 */

/** Counts one invitation mail before the invitation is stored; 429 with Retry-After past the limit. */
export async function takeInvitationSend(
  db: Db,
  { organizationId, email }: { organizationId: string; email: string },
): Promise<void> {
  // A member is refused by better-auth ("already a member") and gets no mail.
  if (await ownsAddress(db, { tenantId: organizationId, address: email })) return;
  try {
    await takeOutsideSend(db, organizationId);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    throw new APIError(
      'TOO_MANY_REQUESTS',
      { message: error.message },
      { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
    );
  }
}

/**
 * better-auth's `resend: true` mails a pending invitation again without passing the hook that counts
 * it. Every re-invite is made a new invitation instead (the pending one is cancelled,
 * `cancelPendingInvitationsOnReInvite`), which is counted; the earlier mail's link stops working.
 */
export function everyInvitationNew(
  body: unknown,
): { context: { body: Record<string, unknown> } } | undefined {
  if (typeof body !== 'object' || body === null || !('resend' in body)) return undefined;
  return { context: { body: { ...(body as Record<string, unknown>), resend: false } } };
}
