import type { Db } from '@/lib/db/client';
import { type LimitState, takeHits } from './counter';
import { policy } from './policies';

/**
 * Counts one mail or webhook request the organization asked for, on the spot, to an address it does
 * not own (an email address that is no member's, any webhook URL), and refuses it past the
 * organization's outside-send limit (RateLimitedError, a 429 through the API). Sitewatch's sending
 * domain and its webhook requests must not become a relay for whoever signs up.
 */
export async function takeOutsideSend(db: Db, tenantId: string, now = Date.now()): Promise<LimitState[]> {
  return takeHits(db, [{ policy: policy('outside-send'), subject: tenantId }], now);
}
