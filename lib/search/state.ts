import { createHash, randomBytes } from 'node:crypto';
import { signToken, verifyToken } from '@/lib/crypto/secrets';

/**
 * The OAuth `state` of a search connection: which site, for which organization, started by which
 * user in which dashboard session, until when; HMAC-signed (lib/crypto/secrets), so the callback
 * believes nothing Google hands back that this server did not issue to this very session.
 */
const PURPOSE = 'search-oauth-state';
/** Time to get through Google's consent screens. */
export const STATE_TTL_MS = 30 * 60_000;

export interface OAuthState {
  siteId: string;
  tenantId: string;
  userId: string;
  /** SHA-256 of the session id (the id itself stays out of URLs and Google's logs). */
  session: string;
  expiresAt: number;
}

export const sessionDigest = (sessionId: string) =>
  createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);

export function issueState(
  s: Omit<OAuthState, 'session' | 'expiresAt'> & { sessionId: string; now: number },
): string {
  return signToken(PURPOSE, {
    s: s.siteId,
    t: s.tenantId,
    u: s.userId,
    h: sessionDigest(s.sessionId),
    e: s.now + STATE_TTL_MS,
    n: randomBytes(8).toString('base64url'),
  });
}

/** The state's contents if this server signed it (expired or not: the caller decides), else null. */
export function readState(token: string): OAuthState | null {
  const payload = verifyToken(PURPOSE, token) as Record<string, unknown> | null;
  if (!payload) return null;
  const { s, t, u, h, e } = payload;
  if (typeof s !== 'string' || typeof t !== 'string' || typeof u !== 'string' || typeof h !== 'string')
    return null;
  if (typeof e !== 'number') return null;
  return { siteId: s, tenantId: t, userId: u, session: h, expiresAt: e };
}
