import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import type { Db } from '@/lib/db/client';
import { sessions, users } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { authGet, authPost, BASE, freshAddress, requestCode } from '../support/auth';
import { useTestDatabase } from '../support/db';

/*
 * The sign-ins go to better-auth's route under /api/auth by hand: it is not in the /v1 document
 * the typed client (tests/support/api-client) is generated from; the /v1 calls use the client.
 */

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

const sitesWithBearer = (d: Device) => v1({ token: d.token }).GET('/v1/sites');
const sitesWithCookie = (d: Device) => v1().GET('/v1/sites', { headers: { cookie: d.cookie } });

type Listed = {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  current: boolean;
  createdAt: number;
  lastActiveAt: number;
};
async function listSessions(d: Device): Promise<Listed[]> {
  const res = await v1({ token: d.token }).GET('/v1/me/sessions');
  expect(res.status).toBe(200);
  return (res.body as { sessions: Listed[] }).sessions;
}
const endSession = (d: Device, sessionId: string) =>
  v1({ token: d.token }).DELETE('/v1/me/sessions/{sessionId}', { params: { path: { sessionId } } });

describe('the account page’s sessions', () => {
  it('lists the user’s sessions by id, never a token; an ended one stops working at once, by bearer token and by cookie', async () => {
    const laptop = await signInDevice('sessions@example.com', 'Mozilla/5.0 (Macintosh) Firefox/130.0');
    const phone = await signInDevice('sessions@example.com', 'Mozilla/5.0 (iPhone) Safari/604.1');
    const stranger = await signInDevice('stranger@example.com', 'curl/8');
    expect((await sitesWithBearer(phone)).status).toBe(200);
    expect((await sitesWithCookie(phone)).status).toBe(200);

    const res = await v1({ token: laptop.token }).GET('/v1/me/sessions');
    // No session's credential is in the answer, the caller's own included.
    for (const token of [laptop.token, phone.token]) expect(JSON.stringify(res.body)).not.toContain(token);
    const listed = await listSessions(laptop);
    expect(listed).toHaveLength(2);
    expect(listed.map((s) => [s.userAgent, s.current])).toEqual([
      ['Mozilla/5.0 (Macintosh) Firefox/130.0', true],
      ['Mozilla/5.0 (iPhone) Safari/604.1', false],
    ]);
    const phoneSession = listed.find((s) => s.userAgent?.includes('iPhone'));

    // Someone else's session is not this user's to end: not found, and it keeps working.
    const [strangerSession] = await listSessions(stranger);
    const refused = await endSession(laptop, strangerSession!.id);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: 'session not found' });
    expect((await sitesWithBearer(stranger)).status).toBe(200);
    expect((await endSession(laptop, 'not-a-session')).status).toBe(404);

    const ended = await endSession(laptop, phoneSession!.id);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ signedOut: true });
    expect((await sitesWithBearer(phone)).status).toBe(401);
    expect((await sitesWithCookie(phone)).status).toBe(401);
    expect(await (await authGet('/get-session', phone.token)).json()).toBeNull();
    expect((await sitesWithBearer(laptop)).status).toBe(200);
    expect(await listSessions(laptop)).toHaveLength(1);
    // Ended already: not found.
    expect((await endSession(laptop, phoneSession!.id)).status).toBe(404);
  });

  it('does not serve better-auth’s list-sessions or revoke-session, which deal in tokens', async () => {
    const me = await signInDevice('tokens@example.com', 'ua');
    expect((await authGet('/list-sessions', me.token)).status).toBe(404);
    expect((await authPost('/revoke-session', { token: me.token }, me.token)).status).toBe(404);
    expect((await sitesWithBearer(me)).status).toBe(200);
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

  it('lists sessions of any age, and leaves out expired ones', async () => {
    const old = await signInDevice('old@example.com', 'ua-old');
    await db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 3600 * 1000) })
      .where(eq(sessions.userId, old.userId));
    expect(await listSessions(old)).toHaveLength(1);
    await db.insert(sessions).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: old.userId,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(await listSessions(old)).toHaveLength(1);
  });

  it('ending the session making the request signs it out', async () => {
    const me = await signInDevice('self@example.com', 'ua-self');
    const [own] = await listSessions(me);
    expect((await endSession(me, own!.id)).status).toBe(200);
    expect((await sitesWithBearer(me)).status).toBe(401);
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
