import { and, desc, eq, gt } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Db } from '@/lib/db/client';
import { sessions } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import type { Principal } from './principal';

/**
 * Where a person is signed in, and signing one of those sessions out, for the account page.
 *
 * Why not better-auth's own `list-sessions` and `revoke-session`: the first answers every session's
 * token, which is the session's credential (cookie value and bearer token alike), because the second
 * takes a token to know which session to end. Served as they are, the page's JavaScript would hold
 * the live credentials of the person's other devices. These answer ids and what identifies a device,
 * never a token, and sign a session out by its id. Ending a session deletes its row, so its cookie
 * and bearer token are refused on the next request (no session cache is configured).
 */

/** Who is asking: the signed-in user, and the session the request came with. */
export interface SessionOwner {
  userId: string;
  sessionId: string;
}

/** The owner of a session principal (the pipeline's session-only gate guarantees one). */
export function sessionOwner(principal: Principal): SessionOwner {
  if (principal.via !== 'session' || !principal.userId || !principal.sessionId) {
    throw new Error('account sessions need a signed-in session');
  }
  return { userId: principal.userId, sessionId: principal.sessionId };
}

export interface AccountSession {
  id: string;
  /** When the sign-in happened (epoch milliseconds). */
  createdAt: number;
  /** When the session was last refreshed; better-auth refreshes it at most once a day. */
  lastActiveAt: number;
  expiresAt: number;
  userAgent: string | null;
  ipAddress: string | null;
  /** The session this request came with. */
  current: boolean;
}

/** The user's unexpired sessions, the current one first, then the most recently active. */
export async function listAccountSessions(
  db: Db,
  owner: SessionOwner,
): Promise<{ sessions: AccountSession[] }> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, owner.userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id));
  const listed = rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.getTime(),
    lastActiveAt: row.updatedAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    userAgent: row.userAgent,
    ipAddress: displayedAddress(row.ipAddress),
    current: row.id === owner.sessionId,
  }));
  return { sessions: [...listed.filter((s) => s.current), ...listed.filter((s) => !s.current)] };
}

/**
 * Signs out one of the user's sessions (the current one too: that is signing out here). Another
 * user's session, or one already ended, is not found.
 */
export async function endAccountSession(
  db: Db,
  owner: SessionOwner,
  sessionId: string,
): Promise<{ signedOut: true }> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, owner.userId)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new NotFoundError('session not found');
  return { signedOut: true };
}

/** The prefix better-auth collapses an IPv6 client address to before storing it (its default `ipv6Subnet`). */
const STORED_IPV6_PREFIX = 64;

/**
 * A session's stored address as a person reads it. better-auth stores an IPv6 client as its /64
 * network written out in full ("2001:0db8:0001:0002:0000:0000:0000:0000"), which is shown compressed
 * with its prefix ("2001:db8:1:2::/64"); the all-zero network is what a loopback client (::1) became
 * and says nothing, so it is left out, as is anything unparsable. IPv4 addresses are stored whole.
 */
export function displayedAddress(stored: string | null): string | null {
  if (!stored || !ipaddr.isValid(stored)) return null;
  const address = ipaddr.parse(stored);
  if (address.kind() === 'ipv4') return address.toString();
  if (address.range() === 'unspecified') return null;
  return `${address.toString()}/${STORED_IPV6_PREFIX}`;
}
