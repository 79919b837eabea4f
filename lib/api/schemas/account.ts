import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { AccountSession as AccountSessionView } from '@/lib/auth/sessions';
import { type Holds, pathId, type Same } from './common';

/** Path `{sessionId}`. A malformed id names no session, so it is the same 404 as an unknown one. */
export const sessionIdParams = z.object({
  sessionId: pathId(() => notFound('session not found')).describe("the session's id"),
});

export const accountSession = z
  .object({
    id: z.string().describe("the session's id (never its token)"),
    createdAt: z.int().describe('when the sign-in happened (epoch milliseconds)'),
    lastActiveAt: z
      .int()
      .describe('when the session was last refreshed (epoch milliseconds); refreshed at most once a day'),
    expiresAt: z.int().describe('when it ends unless used again (epoch milliseconds)'),
    userAgent: z.string().nullable().describe('the browser or client that signed in, as it named itself'),
    ipAddress: z
      .string()
      .nullable()
      .describe(
        'the address it signed in from: IPv4 whole, IPv6 as its /64 network (2001:db8:1:2::/64); null when unknown (a loopback client)',
      ),
    current: z.boolean().describe('whether this is the session making the request'),
  })
  .meta({ id: 'AccountSession', description: 'A place where the signed-in account is signed in' });
export type AccountSession = z.output<typeof accountSession>;
export type AccountSessionMatchesSchema = Holds<Same<AccountSessionView, AccountSession>>;

export const accountSessionsResponse = z
  .object({
    sessions: z
      .array(accountSession)
      .describe('the unexpired sessions, the current one first, then the most recently active'),
  })
  .describe("The account's sessions");

export const endSessionResponse = z
  .object({ signedOut: z.literal(true).describe('the session was ended') })
  .describe('Signed out: its cookie and bearer token are refused from now on');
