import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { MemberView as MemberServiceView } from '@/lib/members/service';
import { type Holds, pathId, type Same } from './common';

export const roleSchema = z
  .enum(['owner', 'admin', 'member'])
  .describe('owner and admin: everything; member: only the sites granted');

/** Path `{memberId}`. A malformed id names no member, so it is the same 404 as an unknown one. */
export const memberIdParams = z.object({
  memberId: pathId(() => notFound('member not found')).describe("the member's id"),
});

export const changeRoleBody = z.strictObject({
  role: roleSchema.describe('the new role; only an owner grants or takes the owner role'),
});

export const memberAccessBody = z.strictObject({
  /** The member's whole allowlist, replacing the old one; [] revokes every site. */
  siteIds: z
    .array(z.uuid('must be site ids (UUIDs)'))
    .max(1000)
    .optional()
    .describe("the member's whole site allowlist, replacing the old one; [] revokes every site"),
  canCrawl: z.boolean().optional().describe('whether the member may start crawls on their sites'),
});
export type MemberAccessInput = z.output<typeof memberAccessBody>;

export const memberView = z
  .object({
    id: z.string().describe("the member's id (membership in this organization)"),
    userId: z.string().describe("the member's user account"),
    email: z.string().describe("the member's email address"),
    name: z.string().describe("the member's name"),
    role: roleSchema,
    siteIds: z
      .array(z.uuid())
      .nullable()
      .describe("a member's site allowlist; null for owners and admins, who see every site"),
    canCrawl: z.boolean().describe('whether they may start crawls; always true for owners and admins'),
    createdAt: z.int().describe('when they joined (epoch milliseconds)'),
  })
  .meta({ id: 'Member', description: 'A member of the organization, with role and site access' });
export type MemberView = z.output<typeof memberView>;

export const listMembersResponse = z
  .object({ members: z.array(memberView).describe("the organization's members") })
  .describe('The members');
export const changeRoleResponse = z
  .object({ member: memberView.describe('the member with the new role') })
  .describe('The member');
export const memberAccessResponse = z
  .object({ ok: z.literal(true).describe('always true') })
  .describe('Access set');
export const removeMemberResponse = z
  .object({ removed: z.literal(true).describe('always true') })
  .describe('The member was removed');

/** What the member service answers is exactly this schema's output: typecheck fails on drift. */
export type MemberServiceMatchesSchema = Holds<Same<MemberServiceView, MemberView>>;
