import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';

/*
 * Issue 24 item 1: every new owner or admin is offered to receive alerts, and is not added without
 * answering. An invitation accepted as an admin and a promotion each open an offer; "Alert me" adds
 * the member to the uptime and performance recipients, "Not now" changes no list; neither is offered
 * again. The organization's creator is no new admin: they receive alerts from the start.
 */

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(async () => {
  await teardown();
});

const offerOf = async (token: string) => {
  const res = await v1({ token }).GET('/v1/notifications/alert-offer');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.alertOffer as { offeredAt: number } | null;
};
const answer = (token: string, accept: boolean) =>
  v1({ token }).POST('/v1/notifications/alert-offer', { body: { accept } });
const orgLists = async (token: string) => {
  const res = await v1({ token }).GET('/v1/notifications');
  expect(res.status).toBe(200);
  const { uptimeRecipients, perfAlertRecipients } = res.body.settings;
  return { uptimeRecipients, perfAlertRecipients };
};
const user = (userId: string) => ({ kind: 'user' as const, userId });

describe('the offer to receive alerts', () => {
  it('is made to an admin who accepts an invitation, adds nobody by itself, and "Alert me" adds them', async () => {
    const owner = await signInOwner(db, 'owner@alert-offer.test');
    expect(await offerOf(owner.token)).toBeNull();
    const before = Date.now();
    const admin = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'admin@alert-offer.test',
      role: 'admin',
    });
    const offer = await offerOf(admin.token);
    expect(offer?.offeredAt).toBeGreaterThanOrEqual(before);
    // Offered, not added.
    expect(await orgLists(owner.token)).toEqual({
      uptimeRecipients: [user(owner.userId)],
      perfAlertRecipients: [user(owner.userId)],
    });

    const accepted = await answer(admin.token, true);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const both = [user(owner.userId), user(admin.userId)];
    expect(accepted.body.settings.uptimeRecipients).toEqual(both);
    expect(await orgLists(owner.token)).toEqual({ uptimeRecipients: both, perfAlertRecipients: both });
    expect(await offerOf(admin.token)).toBeNull();
    // A second click adds nobody twice.
    expect((await answer(admin.token, true)).body.settings.uptimeRecipients).toEqual(both);
  });

  it('is made to a member made an admin; "Not now" closes it and changes no list', async () => {
    const owner = await signInOwner(db, 'owner@alert-offer-promote.test');
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'member@alert-offer-promote.test',
      role: 'member',
    });
    const lists = await orgLists(owner.token);
    const promote = (role: RequestBody<'/v1/members/{memberId}', 'patch'>['role']) =>
      v1({ token: owner.token }).PATCH('/v1/members/{memberId}', {
        params: { path: { memberId: member.memberId } },
        body: { role },
      });
    expect((await promote('admin')).status).toBe(200);
    expect(await offerOf(member.token)).not.toBeNull();

    const dismissed = await answer(member.token, false);
    expect(dismissed.status).toBe(200);
    expect(await orgLists(owner.token)).toEqual(lists);
    expect(await offerOf(member.token)).toBeNull();

    // Made an owner later: offered again.
    expect((await promote('owner')).status).toBe(200);
    expect(await offerOf(member.token)).not.toBeNull();
  });

  it('is no longer open once the member receives both kinds anyway', async () => {
    const owner = await signInOwner(db, 'owner@alert-offer-ticked.test');
    const admin = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'admin@alert-offer-ticked.test',
      role: 'admin',
    });
    expect(await offerOf(admin.token)).not.toBeNull();
    const both = [user(owner.userId), user(admin.userId)];
    const saved = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: { uptimeRecipients: both, perfAlertRecipients: both },
    });
    expect(saved.status).toBe(200);
    expect(await offerOf(admin.token)).toBeNull();
  });
});
