import { vi } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import type { Db } from '@/lib/db/client';

export const BASE = 'http://localhost:3000';

/**
 * better-auth rate-limits per client address, read from X-Forwarded-For. These helpers call the route
 * handler directly, downstream of the server's front door, which (TRUSTED_PROXY unset) has already
 * set that header to the connection's address: a distinct value here is a distinct client. Each test
 * identity gets its own address, as distinct people would; a test of the limits passes the same `ip`
 * on purpose. tests/integration/auth-client-address.test.ts covers the front door itself.
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

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Asks for a sign-in code and reads it where a self-hoster without a mail provider does: the local
 * outbox's log line (`mail to=<address> subject="123456 is your Sitewatch sign-in code"`). The stored
 * copy of the mail has the code redacted, so the database is no source for it. `code` is null when
 * no code was mailed (a refused request).
 */
export async function requestCode(
  email: string,
  ip: string = freshAddress(),
): Promise<{ res: Response; code: string | null }> {
  return codeMailedBy(email, () =>
    authPost('/email-otp/send-verification-otp', { email, type: 'sign-in' }, undefined, ip),
  );
}

/** Makes `send` (a request for a code) and reads the code mailed to `email` from the outbox's log line. */
export async function codeMailedBy(
  email: string,
  send: () => Promise<Response>,
): Promise<{ res: Response; code: string | null }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  let res: Response;
  let lines: string[];
  try {
    res = await send();
    lines = log.mock.calls.map((call) => String(call[0]));
  } finally {
    log.mockRestore();
  }
  const pattern = new RegExp(
    `^mail to=${escapeRegExp(email)} subject="(\\d{6}) is your Sitewatch sign-in code"`,
  );
  const code = lines.map((line) => line.match(pattern)?.[1]).findLast(Boolean) ?? null;
  return { res, code };
}

/**
 * Signs in with an emailed code, as the dashboard does; returns the bearer token. (The database
 * argument is left over from when codes were read from the stored mail; callers still pass it.)
 */
export async function signIn(_db: Db, email: string): Promise<{ token: string; userId: string }> {
  const ip = freshAddress();
  const { res: sent, code: otp } = await requestCode(email, ip);
  if (sent.status !== 200) throw new Error(`send code failed: ${sent.status} ${await sent.text()}`);
  if (!otp) throw new Error(`no sign-in code for ${email} in the outbox log`);
  const res = await authPost('/sign-in/email-otp', { email, otp }, undefined, ip);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const token = res.headers.get('set-auth-token');
  if (!token) throw new Error('sign-in answered without set-auth-token');
  const body = (await res.json()) as { user: { id: string } };
  return { token, userId: body.user.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
