import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationPreview } from '@/lib/dashboard/invitation';
import type { Db } from '@/lib/db/client';
import { authGet, authPost, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

describe('the invitation page after the organization invites the same address again', () => {
  it('says the first link was replaced by a newer invitation, and the newer link works', async () => {
    const owner = await signIn(db, 'reinvite-owner@example.com');
    const session = (await (await authGet('/get-session', owner.token)).json()) as {
      session: { activeOrganizationId: string };
    };
    const organizationId = session.session.activeOrganizationId;
    const invite = async (email: string) => {
      const res = await authPost(
        '/organization/invite-member',
        { email, role: 'member', organizationId },
        owner.token,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };

    const first = await invite('reinvited@example.com');
    expect((await invitationPreview(db, first))?.status).toBe('pending');
    const second = await invite('Reinvited@example.com');
    expect((await invitationPreview(db, first))?.status).toBe('replaced');
    expect((await invitationPreview(db, second))?.status).toBe('pending');

    // A cancellation with no newer invitation stays a cancellation.
    const other = await invite('cancelled@example.com');
    await authPost('/organization/cancel-invitation', { invitationId: other }, owner.token);
    expect((await invitationPreview(db, other))?.status).toBe('canceled');

    const invitee = await signIn(db, 'reinvited@example.com');
    const accepted = await authPost(
      '/organization/accept-invitation',
      { invitationId: second },
      invitee.token,
    );
    expect(accepted.status).toBe(200);
    expect((await invitationPreview(db, first))?.status).toBe('replaced');
  });
});
