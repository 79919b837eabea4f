import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { members, organizations, sessions } from '@/lib/db/schema';
import { authGet, authPost, latestCode, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

describe('email code sign-in', () => {
  it('mails a 6-digit code whose subject starts with it, and signs in with a bearer token', async () => {
    const { token, userId } = await signIn(db, 'ada@example.com');
    expect(token.length).toBeGreaterThan(20);
    const code = await latestCode(db, 'ada@example.com');
    expect(code).toMatch(/^\d{6}$/);

    const session = await authGet('/get-session', token);
    const body = (await session.json()) as {
      user: { id: string };
      session: { activeOrganizationId: string };
    };
    expect(body.user.id).toBe(userId);

    // First sign-in creates a personal organization, owned by the user, already active.
    const [member] = await db.select().from(members).where(eq(members.userId, userId));
    expect(member?.role).toBe('owner');
    expect(body.session.activeOrganizationId).toBe(member?.organizationId);
    const [org] = await db.select().from(organizations).where(eq(organizations.id, member!.organizationId));
    expect(org?.name).toBe("ada's sites");
  });

  it('refuses a wrong code and stops accepting after the allowed attempts', async () => {
    const email = 'grace@example.com';
    await authPost('/email-otp/send-verification-otp', { email, type: 'sign-in' });
    const code = await latestCode(db, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      const res = await authPost('/sign-in/email-otp', { email, otp: wrong });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    const late = await authPost('/sign-in/email-otp', { email, otp: code });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(await db.select().from(sessions)).toHaveLength(1); // only ada's session from the first test
  });
});
