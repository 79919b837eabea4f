import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { codeMailedBy, freshAddress } from '../support/auth';
import { useTestDatabase } from '../support/db';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): better-auth's
 * routes under /api/auth are not in the /v1 document the client is generated from.
 */

/*
 * Signing in on a Vercel preview deployment (issue 22 item 4). A preview answers at its branch URL and
 * at its own deployment URL; with APP_URL unset the auth layer must take both as its own origin, and
 * nothing else: not another branch's preview, not the production domain.
 *
 * On Vercel the server refuses to run without DATABASE_URL (a function has no disk for PGlite), so a
 * Vercel environment needs the Postgres server: this file runs when TEST_DATABASE_URL is set (as in CI)
 * and is skipped on the embedded PGlite run. lib/config.ts's rules themselves are unit-tested.
 */

const BRANCH = 'sitewatch-git-feature-team.vercel.app';
const DEPLOYMENT = 'sitewatch-k3j2h1-team.vercel.app';

const PREVIEW_ENV = {
  VERCEL: '1',
  VERCEL_ENV: 'preview',
  VERCEL_URL: DEPLOYMENT,
  VERCEL_BRANCH_URL: BRANCH,
  VERCEL_PROJECT_PRODUCTION_URL: 'sitewatch.example',
  BETTER_AUTH_SECRET: 'preview-secret-'.padEnd(40, 'x'),
  INNGEST_SIGNING_KEY: 'signkey-branch-0123456789',
  INNGEST_EVENT_KEY: 'event-key-0123456789',
};

/**
 * A browser on `origin` posting to the preview at `host`, as the sign-in page's fetch does. Vercel's
 * edge says who the client is in x-vercel-forwarded-for (the header read on Vercel: rate limits key on it).
 */
function post(host: string, origin: string, path: string, body: unknown, ip: string): Promise<Response> {
  const sameOrigin = origin === `https://${host}`;
  return authRoute.POST(
    new Request(`https://${host}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin,
        'sec-fetch-site': sameOrigin ? 'same-origin' : 'cross-site',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
        'x-vercel-forwarded-for': ip,
      },
      body: JSON.stringify(body),
    }),
  );
}

/** Signs in with an emailed code on the preview at `host`; answers the sign-in response. */
async function signInAt(host: string, email: string): Promise<Response> {
  const origin = `https://${host}`;
  const ip = freshAddress();
  const { res, code } = await codeMailedBy(email, () =>
    post(host, origin, '/email-otp/send-verification-otp', { email, type: 'sign-in' }, ip),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  expect(code, `a code mailed to ${email}`).toMatch(/^\d{6}$/);
  return post(host, origin, '/sign-in/email-otp', { email, otp: code }, ip);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('sign-in on a Vercel preview deployment', () => {
  let db: Db;
  let teardown: () => Promise<void>;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [name, value] of Object.entries(PREVIEW_ENV)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    ({ db, teardown } = await useTestDatabase());
  });
  afterAll(async () => {
    await teardown();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });

  it('signs in at the branch URL, with a secure session cookie', async () => {
    const res = await signInAt(BRANCH, 'preview-branch@example.com');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('set-auth-token')).toBeTruthy();
    // https base URL: the cookie is Secure and carries the __Secure- prefix browsers hold it to.
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token='));
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(cookie).toMatch(/;\s*Secure/i);

    const token = /^[^=]+=([^;]+)/.exec(cookie ?? '')?.[1];
    const session = await authRoute.GET(
      new Request(`https://${BRANCH}/api/auth/get-session`, {
        headers: { cookie: `__Secure-better-auth.session_token=${token}` },
      }),
    );
    expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe(
      'preview-branch@example.com',
    );
  });

  it("signs in at the deployment's own URL", async () => {
    const res = await signInAt(DEPLOYMENT, 'preview-deployment@example.com');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('set-auth-token')).toBeTruthy();
  });

  it("refuses another preview's origin and the production domain, and mails no code", async () => {
    for (const origin of ['https://sitewatch-git-other-team.vercel.app', 'https://sitewatch.example']) {
      const email = `foreign-${new URL(origin).hostname}@example.com`;
      const res = await post(
        BRANCH,
        origin,
        '/email-otp/send-verification-otp',
        { email, type: 'sign-in' },
        freshAddress(),
      );
      expect(res.status, origin).toBe(403);
      expect(await res.text()).toContain('Invalid origin');
      expect(await db.select().from(mailMessages).where(eq(mailMessages.to, email))).toEqual([]);
    }
  });
});
