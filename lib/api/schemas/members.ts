import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { MemberView as MemberServiceView } from '@/lib/members/service';
import { type Holds, pathId, type Same } from './common';

export const roleSchema = z.enum(['owner', 'admin', 'member']);

/** Path `{memberId}`. A malformed id names no member, so it is the same 404 as an unknown one. */
export const memberIdParams = z.object({
  memberId: pathId(() => notFound('member not found')),
});

export const changeRoleBody = z.strictObject({ role: roleSchema });

export const memberAccessBody = z.strictObject({
  /** The member's whole allowlist, replacing the old one; [] revokes every site. */
  siteIds: z.array(z.uuid('must be site ids (UUIDs)')).max(1000).optional(),
  canCrawl: z.boolean().optional(),
});
export type MemberAccessInput = z.output<typeof memberAccessBody>;

export const memberView = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  /** A member's allowlist; null for owners and admins, who see every site. */
  siteIds: z.array(z.uuid()).nullable(),
  /** Always true for owners and admins. */
  canCrawl: z.boolean(),
  createdAt: z.int(),
});
export type MemberView = z.output<typeof memberView>;

export const listMembersResponse = z.object({ members: z.array(memberView) });
export const changeRoleResponse = z.object({ member: memberView });
export const memberAccessResponse = z.object({ ok: z.literal(true) });
export const removeMemberResponse = z.object({ removed: z.literal(true) });

/** What the member service answers is exactly this schema's output: typecheck fails on drift. */
export type MemberServiceMatchesSchema = Holds<Same<MemberServiceView, MemberView>>;
