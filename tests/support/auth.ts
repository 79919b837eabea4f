import { and, desc, eq } from 'drizzle-orm';
import * as authRoute from '@/app/api/auth/[...all]/route';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';

export const BASE = 'http://localhost:3000';

/**
 * better-auth rate-limits per client address. Each test identity gets its own address, as distinct
 * people would; a test of the limits passes the same `ip` on purpose.
 */
let nextAddress = 1;
export const freshAddress = () => `198.51.100.${(nextAddress++ % 250) + 1}`;

export async function authPost(
  path: string,
  body: unknown,
  token?: string,
  ip: string = freshAddress(),
): Promise<Response> {
  return authRoute.POST(
    new Request(`${BASE}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: BASE,
        'x-forwarded-for': ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

export async function authGet(path: string, token?: string): Promise<Response> {
  return authRoute.GET(
    new Request(`${BASE}/api/auth${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
  );
}

/** The newest sign-in code mailed to an address, read from the local outbox. */
export async function latestCode(db: Db, email: string): Promise<string> {
  const [msg] = await db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.to, email)))
    .orderBy(desc(mailMessages.created_at))
    .limit(1);
  const code = msg?.subject.match(/^(\d{6}) is your Sitewatch sign-in code$/)?.[1];
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}

/** Signs in with an emailed code, as the dashboard does; returns the bearer token. */
export async function signIn(db: Db, email: string): Promise<{ token: string; userId: string }> {
  const ip = freshAddress();
  const sent = await authPost('/email-otp/send-verification-otp', { email, type: 'sign-in' }, undefined, ip);
  if (sent.status !== 200) throw new Error(`send code failed: ${sent.status} ${await sent.text()}`);
  const otp = await latestCode(db, email);
  const res = await authPost('/sign-in/email-otp', { email, otp }, undefined, ip);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const token = res.headers.get('set-auth-token');
  if (!token) throw new Error('sign-in answered without set-auth-token');
  const body = (await res.json()) as { user: { id: string } };
  return { token, userId: body.user.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
