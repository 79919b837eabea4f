import { createEmailVerificationToken } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import { authFor } from '@/lib/auth/auth';
import { AUTH_ROUTES } from '@/lib/auth/routes';
import type { Db } from '@/lib/db/client';
import { invitations, mailMessages, members, users } from '@/lib/db/schema';
import { authGet, authPost, BASE, freshAddress, requestCode, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): better-auth's
 * routes under /api/auth are not in the /v1 document the client is generated from.
 */

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

/** The secret the source used to ship as the fallback: anyone could read it, so anyone could sign. */
const PUBLISHED_DEV_SECRET = 'sitewatch-development-secret-change-me-in-production';

/** One request to the auth route handler, as the browser would send it. */
function call(method: string, route: string): Promise<Response> {
  const request = new Request(`${BASE}/api/auth${route}`, {
    method,
    headers: { 'content-type': 'application/json', origin: BASE, 'x-forwarded-for': freshAddress() },
    ...(method === 'GET' ? {} : { body: '{}' }),
  });
  return method === 'GET' ? authRoute.GET(request) : authRoute.POST(request);
}

describe('the published development secret', () => {
  it('signs nothing: a change-email token forged with it is refused and the attacker gets their own account', async () => {
    expect((await authFor(db).$context).secret).not.toBe(PUBLISHED_DEV_SECRET);
    const victim = await signIn(db, 'victim@example.com');
    const [victimMembership] = await db.select().from(members).where(eq(members.userId, victim.userId));

    for (const requestType of ['change-email-verification', undefined]) {
      const forged = await createEmailVerificationToken(
        PUBLISHED_DEV_SECRET,
        'victim@example.com',
        'attacker@example.com',
        3600,
        { userId: victim.userId, ...(requestType ? { requestType } : {}) },
      );
      const res = await authGet(`/verify-email?token=${forged}`);
      expect(res.status).toBe(404);
    }

    const [victimRow] = await db.select().from(users).where(eq(users.id, victim.userId));
    expect(victimRow?.email).toBe('victim@example.com');

    const attacker = await signIn(db, 'attacker@example.com');
    expect(attacker.userId).not.toBe(victim.userId);
    const attackerOrgs = await db
      .select({ organizationId: members.organizationId })
      .from(members)
      .where(eq(members.userId, attacker.userId));
    expect(attackerOrgs).toHaveLength(1);
    expect(attackerOrgs[0]?.organizationId).not.toBe(victimMembership?.organizationId);
  });
});

describe('the per-address code cap', () => {
  it('holds on every path that sends a code: a password-reset code past the cap is refused and not mailed', async () => {
    const email = 'reset-flood@example.com';
    await signIn(db, email); // the account exists, so a reset code would be sent
    for (let i = 0; i < 4; i++) expect((await requestCode(email)).res.status).toBe(200);
    const mailed = () => db.select().from(mailMessages).where(eq(mailMessages.to, email));
    expect(await mailed()).toHaveLength(5);

    // Over HTTP the password-reset routes are gone; server-side calls still reach sendVerificationOTP.
    expect((await call('POST', '/email-otp/request-password-reset')).status).toBe(404);
    // (better-auth logs a refusal from sendVerificationOTP and still answers success: no mail is the proof.)
    const auth = authFor(db);
    await auth.api.requestPasswordResetEmailOTP({ body: { email } });
    for (const type of ['forget-password', 'email-verification'] as const) {
      await expect(auth.api.sendVerificationOTP({ body: { email, type } })).rejects.toMatchObject({
        statusCode: 429,
      });
    }
    expect(await mailed()).toHaveLength(5);
    // The sign-in route itself answers 429 before generating a code.
    expect((await requestCode(email)).res.status).toBe(429);
  });
});

describe('the organization cap', () => {
  it('holds when an invitation is accepted: an account at its cap gets a 403 and is not added', async () => {
    const owner = await signIn(db, 'inviting-owner@example.com');
    const [{ organizationId } = { organizationId: '' }] = await db
      .select({ organizationId: members.organizationId })
      .from(members)
      .where(eq(members.userId, owner.userId));
    const invited = await authPost(
      '/organization/invite-member',
      { email: 'capped@example.com', role: 'member', organizationId },
      owner.token,
    );
    expect(invited.status).toBe(200);
    const invitation = (await invited.json()) as { id: string };

    // Its own organization plus a second one: the default cap of two.
    const capped = await signIn(db, 'capped@example.com');
    expect(
      (await authPost('/organization/create', { name: 'Second', slug: 'capped-second' }, capped.token))
        .status,
    ).toBe(200);

    const accepted = await authPost(
      '/organization/accept-invitation',
      { invitationId: invitation.id },
      capped.token,
    );
    expect(accepted.status).toBe(403);
    expect(await accepted.text()).toMatch(/as many organizations as this account may/);
    const memberships = await db.select().from(members).where(eq(members.userId, capped.userId));
    expect(memberships).toHaveLength(2);
    expect(memberships.map((m) => m.organizationId)).not.toContain(organizationId);
    const [row] = await db.select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row?.status).toBe('pending');
  });
});

describe('better-auth routes', () => {
  it('serves only the allowlisted routes: every other endpoint better-auth has answers 404', async () => {
    const endpoints = Object.values(authFor(db).api as Record<string, { path?: string; options?: unknown }>)
      .filter(
        (e): e is { path: string; options: { method?: string | string[] } } => typeof e.path === 'string',
      )
      .map((e) => {
        const method = [e.options.method ?? 'GET'].flat()[0];
        return { path: e.path.replace(/:[^/]+/g, 'x'), method: method === '*' ? 'POST' : (method ?? 'GET') };
      });
    // The walk is only meaningful if it covers what the review found open.
    const paths = endpoints.map((e) => e.path);
    for (const p of ['/verify-email', '/change-email', '/email-otp/request-password-reset', '/update-user']) {
      expect(paths).toContain(p);
    }

    const answered: string[] = [];
    for (const { path, method } of endpoints) {
      const status = (await call(method, path)).status;
      if (AUTH_ROUTES.has(path)) expect(status, `${method} ${path}`).not.toBe(404);
      else if (status !== 404) answered.push(`${method} ${path} -> ${status}`);
    }
    expect(answered).toEqual([]);
    // Every allowlisted route is one better-auth actually has (no typo silently disabling one).
    for (const route of AUTH_ROUTES) expect(paths).toContain(route);
  });

  it('refuses other spellings of a disabled route', async () => {
    const spellings = [
      '/verify-email/',
      '//verify-email',
      '/VERIFY-EMAIL',
      '/verify%2Demail',
      '/%76erify-email',
      '/get-session/../verify-email',
      '//get-session',
      '/get-session/',
    ];
    for (const spelling of spellings) {
      expect((await call('GET', spelling)).status, spelling).toBe(404);
    }
  });
});

describe('the default install opened at a loopback address', () => {
  /** A browser on http://<host>:3000 posts to its own origin, with the cookies it holds. */
  function sendCodeFrom(origin: string): Promise<Response> {
    return authRoute.POST(
      new Request(`${origin}/api/auth/email-otp/send-verification-otp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin,
          cookie: 'better-auth.session_token=stale',
          'x-forwarded-for': freshAddress(),
        },
        body: JSON.stringify({ email: 'loopback@example.com', type: 'sign-in' }),
      }),
    );
  }

  it('accepts sign-in from localhost, 127.0.0.1 and [::1] on the default port, and no other origin', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const res = await sendCodeFrom(origin);
      expect(res.status, origin).toBe(200);
    }
    for (const origin of ['http://127.0.0.1:3001', 'http://evil.example', 'http://127.0.0.2:3000']) {
      const res = await sendCodeFrom(origin);
      expect(res.status, origin).toBe(403);
      expect(await res.text()).toContain('Invalid origin');
    }
  });
});
