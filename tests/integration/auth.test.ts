import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { mailMessages, members, organizations, sessions } from '@/lib/db/schema';
import { authGet, authPost, freshAddress, requestCode, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

describe('email code sign-in', () => {
  it('mails a 6-digit code whose subject starts with it, and signs in with a bearer token', async () => {
    const { code } = await requestCode('ada@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const { token, userId } = await signIn(db, 'ada@example.com');
    expect(token.length).toBeGreaterThan(20);

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
    const ip = freshAddress();
    const code = (await requestCode(email, ip)).code!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      const res = await authPost('/sign-in/email-otp', { email, otp: wrong }, undefined, ip);
      expect(res.status).toBe(400);
    }
    // The code is spent after three wrong tries, even when the right one comes next.
    const late = await authPost('/sign-in/email-otp', { email, otp: code }, undefined, ip);
    expect(late.status).toBe(403);
    expect(await db.select().from(sessions)).toHaveLength(1); // only ada's session from the first test
  });
});

describe('rate limits', () => {
  it('answers 429 to a fourth code request from one address within a minute', async () => {
    const ip = freshAddress();
    const statuses: number[] = [];
    for (const email of ['r1@example.com', 'r2@example.com', 'r3@example.com', 'r4@example.com']) {
      statuses.push(
        (await authPost('/email-otp/send-verification-otp', { email, type: 'sign-in' }, undefined, ip))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('caps the codes mailed to one address, whichever addresses ask', async () => {
    const email = 'flooded@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await authPost('/email-otp/send-verification-otp', { email, type: 'sign-in' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const mailed = await db.select().from(mailMessages).where(eq(mailMessages.to, email));
    expect(mailed).toHaveLength(5);
  });

  it('expires codes after five minutes', async () => {
    const email = 'late@example.com';
    const ip = freshAddress();
    const code = (await requestCode(email, ip)).code!;
    // Age the stored code past its five minutes instead of waiting them out.
    await db.execute(
      sql`update verifications set expires_at = now() - interval '1 second' where identifier like ${`%${email}`}`,
    );
    const res = await authPost('/sign-in/email-otp', { email, otp: code }, undefined, ip);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/expired/i);
  });
});

describe('organizations and invitations', () => {
  it('caps organizations per account at two by default', async () => {
    const { token } = await signIn(db, 'cap@example.com');
    const second = await authPost('/organization/create', { name: 'Second', slug: 'cap-second' }, token);
    expect(second.status).toBe(200);
    const third = await authPost('/organization/create', { name: 'Third', slug: 'cap-third' }, token);
    expect(third.status).toBe(403);
    expect(await third.text()).toMatch(/maximum number of organizations/i);
  });

  it('invites by email with a link, lists, cancels and accepts', async () => {
    const owner = await signIn(db, 'owner@example.com');
    const session = (await (await authGet('/get-session', owner.token)).json()) as {
      session: { activeOrganizationId: string };
    };
    const organizationId = session.session.activeOrganizationId;

    const invited = await authPost(
      '/organization/invite-member',
      { email: 'colleague@example.com', role: 'member', organizationId },
      owner.token,
    );
    expect(invited.status).toBe(200);
    const invitation = (await invited.json()) as { id: string };
    const [mail] = await db.select().from(mailMessages).where(eq(mailMessages.to, 'colleague@example.com'));
    expect(mail?.subject).toBe(`owner@example.com invited you to owner's sites on Sitewatch`);
    expect(mail?.text).toContain(`http://localhost:3000/invite/${invitation.id}`);

    const listed = (await (
      await authGet(`/organization/list-invitations?organizationId=${organizationId}`, owner.token)
    ).json()) as Array<{ id: string; status: string }>;
    expect(listed.map((i) => [i.id, i.status])).toEqual([[invitation.id, 'pending']]);

    // A second invitation is cancelled; it can no longer be accepted.
    const other = (await (
      await authPost(
        '/organization/invite-member',
        { email: 'other@example.com', role: 'admin', organizationId },
        owner.token,
      )
    ).json()) as { id: string };
    expect(
      (await authPost('/organization/cancel-invitation', { invitationId: other.id }, owner.token)).status,
    ).toBe(200);
    const otherUser = await signIn(db, 'other@example.com');
    expect(
      (await authPost('/organization/accept-invitation', { invitationId: other.id }, otherUser.token)).status,
    ).toBe(400);

    const colleague = await signIn(db, 'colleague@example.com');
    const accepted = await authPost(
      '/organization/accept-invitation',
      { invitationId: invitation.id },
      colleague.token,
    );
    expect(accepted.status).toBe(200);
    const roles = await db
      .select({ org: members.organizationId, role: members.role })
      .from(members)
      .where(eq(members.userId, colleague.userId));
    expect(roles).toContainEqual({ org: organizationId, role: 'member' });
  });

  it('leaves role changes and removals to /v1/members', async () => {
    const { token } = await signIn(db, 'bypass@example.com');
    const role = await authPost('/organization/update-member-role', { memberId: 'x', role: 'admin' }, token);
    const remove = await authPost('/organization/remove-member', { memberIdOrEmail: 'x' }, token);
    expect([role.status, remove.status]).toEqual([404, 404]);
  });

  it("offers no way to leave around the owner rules: better-auth's leave route is off", async () => {
    const solo = await signIn(db, 'solo@example.com');
    const session = (await (await authGet('/get-session', solo.token)).json()) as {
      session: { activeOrganizationId: string };
    };
    const organizationId = session.session.activeOrganizationId;
    const res = await authPost('/organization/leave', { organizationId }, solo.token);
    expect(res.status).toBe(404);
    const memberships = await db.select().from(members).where(eq(members.organizationId, organizationId));
    expect(memberships.map((m) => m.role)).toEqual(['owner']);
  });
});
