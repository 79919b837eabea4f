import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import * as sitesRoute from '@/app/api/v1/sites/route';
import type { Db } from '@/lib/db/client';
import { sessions, users } from '@/lib/db/schema';
import { authGet, authPost, BASE, freshAddress, requestCode } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { call } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

type Device = { token: string; cookie: string; userId: string };

/** A sign-in from a browser of its own: the bearer token and the session cookie it was given. */
async function signInDevice(email: string, userAgent: string): Promise<Device> {
  const ip = freshAddress();
  const { code } = await requestCode(email, ip);
  if (!code) throw new Error('no code');
  const res = await authRoute.POST(
    new Request(`${BASE}/api/auth/sign-in/email-otp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: BASE,
        'x-forwarded-for': ip,
        'user-agent': userAgent,
      },
      body: JSON.stringify({ email, otp: code }),
    }),
  );
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('better-auth.session_token='));
  if (!cookie) throw new Error('no session cookie');
  const body = (await res.json()) as { user: { id: string } };
  return { token: res.headers.get('set-auth-token') ?? '', cookie, userId: body.user.id };
}

const sitesWithBearer = (d: Device) => call(sitesRoute.GET, { path: '/api/v1/sites', token: d.token });
const sitesWithCookie = (d: Device) =>
  call(sitesRoute.GET, { path: '/api/v1/sites', headers: { cookie: d.cookie } });

type Listed = { id: string; token: string; userAgent: string | null; ipAddress: string | null };
async function listSessions(d: Device): Promise<Listed[]> {
  const res = await authGet('/list-sessions', d.token);
  expect(res.status).toBe(200);
  return (await res.json()) as Listed[];
}

describe('the account page’s session routes', () => {
  it('lists the user’s sessions; a revoked one stops working at once, by bearer token and by cookie', async () => {
    const laptop = await signInDevice('sessions@example.com', 'Mozilla/5.0 (Macintosh) Firefox/130.0');
    const phone = await signInDevice('sessions@example.com', 'Mozilla/5.0 (iPhone) Safari/604.1');
    const stranger = await signInDevice('stranger@example.com', 'curl/8');
    expect((await sitesWithBearer(phone)).status).toBe(200);
    expect((await sitesWithCookie(phone)).status).toBe(200);

    const listed = await listSessions(laptop);
    expect(listed).toHaveLength(2);
    expect(listed.map((s) => s.userAgent).sort()).toEqual([
      'Mozilla/5.0 (Macintosh) Firefox/130.0',
      'Mozilla/5.0 (iPhone) Safari/604.1',
    ]);
    const phoneSession = listed.find((s) => s.userAgent?.includes('iPhone'));

    // Someone else's session token is not this user's to revoke: it keeps working.
    const [strangerSession] = await listSessions(stranger);
    const refused = await authPost('/revoke-session', { token: strangerSession?.token }, laptop.token);
    expect(refused.status).toBe(200);
    expect((await sitesWithBearer(stranger)).status).toBe(200);

    const revoked = await authPost('/revoke-session', { token: phoneSession?.token }, laptop.token);
    expect(revoked.status).toBe(200);
    expect((await sitesWithBearer(phone)).status).toBe(401);
    expect((await sitesWithCookie(phone)).status).toBe(401);
    expect((await authGet('/get-session', phone.token)).status).toBe(200);
    expect(await (await authGet('/get-session', phone.token)).json()).toBeNull();
    expect((await sitesWithBearer(laptop)).status).toBe(200);
    expect(await listSessions(laptop)).toHaveLength(1);
  });

  it('signs out every other session and keeps this one', async () => {
    const a = await signInDevice('others@example.com', 'ua-a');
    const b = await signInDevice('others@example.com', 'ua-b');
    const c = await signInDevice('others@example.com', 'ua-c');
    const res = await authPost('/revoke-other-sessions', {}, a.token);
    expect(res.status).toBe(200);
    expect((await sitesWithCookie(b)).status).toBe(401);
    expect((await sitesWithBearer(c)).status).toBe(401);
    expect((await sitesWithCookie(a)).status).toBe(200);
    expect((await listSessions(a)).map((s) => s.userAgent)).toEqual(['ua-a']);
  });

  it('lists sessions of any age (no "fresh session" requirement)', async () => {
    const old = await signInDevice('old@example.com', 'ua-old');
    await db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 3600 * 1000) })
      .where(eq(sessions.userId, old.userId));
    expect(await listSessions(old)).toHaveLength(1);
  });
});

describe('update-user', () => {
  it('changes the display name, and nothing else', async () => {
    const me = await signInDevice('named@example.com', 'ua');
    const ok = await authPost('/update-user', { name: 'Ada Lovelace' }, me.token);
    expect(ok.status).toBe(200);
    const session = (await (await authGet('/get-session', me.token)).json()) as { user: { name: string } };
    expect(session.user.name).toBe('Ada Lovelace');

    for (const body of [
      { image: 'https://evil.example/x.png' },
      { name: 'Ada', image: null },
      { name: 'Ada', emailVerified: false },
      { email: 'other@example.com' },
      { name: 42 },
      { name: ' padded ' },
      { name: 'x'.repeat(81) },
      [],
    ]) {
      const res = await authPost('/update-user', body, me.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const [row] = await db.select().from(users).where(eq(users.id, me.userId));
    expect(row).toMatchObject({ name: 'Ada Lovelace', email: 'named@example.com', image: null });
  });

  it('needs a session', async () => {
    expect((await authPost('/update-user', { name: 'Nobody' })).status).toBe(401);
  });
});
