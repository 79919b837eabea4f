import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { v1 } from '../support/api-client';
import { authGet, authPost, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

async function activeOrganization(token: string): Promise<string | null> {
  const res = await authGet('/get-session', token);
  const body = (await res.json()) as { session: { activeOrganizationId: string | null } };
  return body.session.activeOrganizationId;
}

async function signOut(token: string) {
  const res = await authPost('/sign-out', {}, token);
  expect(res.status).toBe(200);
  expect(await authGet('/get-session', token).then((r) => r.json())).toBeNull();
}

describe('the organization a new session starts in', () => {
  it('is the one last made active, while still a member; after a removal, the oldest membership', async () => {
    const agency = await signInOwner(db, 'agency@example.com');
    const ada = await signInOwner(db, 'ada-client@example.com');
    // Accepting the invitation makes the agency's organization active in that session.
    const joined = await addMember(db, {
      ownerToken: agency.token,
      tenantId: agency.tenantId,
      email: 'ada-client@example.com',
      role: 'member',
    });

    // Back to her own organization with the switcher: the next sign-in starts there.
    const toOwn = await authPost('/organization/set-active', { organizationId: ada.tenantId }, joined.token);
    expect(toOwn.status).toBe(200);
    await signOut(joined.token);
    const second = await signIn(db, 'ada-client@example.com');
    expect(await activeOrganization(second.token)).toBe(ada.tenantId);

    // Switched to the agency's organization, she comes back to it, not to her own (older) one.
    const toAgency = await authPost(
      '/organization/set-active',
      { organizationId: agency.tenantId },
      second.token,
    );
    expect(toAgency.status).toBe(200);
    await signOut(second.token);
    const third = await signIn(db, 'ada-client@example.com');
    expect(await activeOrganization(third.token)).toBe(agency.tenantId);

    // Removed from the agency's organization, she no longer resumes into it.
    const removed = await v1({ token: agency.token }).DELETE('/v1/members/{memberId}', {
      params: { path: { memberId: joined.memberId } },
    });
    expect(removed.status).toBe(200);
    await signOut(third.token);
    const fourth = await signIn(db, 'ada-client@example.com');
    expect(await activeOrganization(fourth.token)).toBe(ada.tenantId);
  });

  it('is the organization joined last, after accepting an invitation', async () => {
    const first = await signInOwner(db, 'first@example.com');
    const other = await signInOwner(db, 'other-person@example.com');
    const joined = await addMember(db, {
      ownerToken: other.token,
      tenantId: other.tenantId,
      email: 'first@example.com',
      role: 'admin',
    });
    await signOut(joined.token);
    await signOut(first.token);
    const again = await signIn(db, 'first@example.com');
    expect(await activeOrganization(again.token)).toBe(other.tenantId);
  });
});
