import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  changeRoleBody,
  changeRoleResponse,
  memberIdParams,
  removeMemberResponse,
} from '@/lib/api/schemas/members';
import { changeMemberRole, removeMember } from '@/lib/members/service';

/** Role change: `{role}`. Only an owner grants or takes the owner role; the last owner stays (409). */
export const PATCH = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    params: memberIdParams,
    body: changeRoleBody,
    response: changeRoleResponse,
    summary: "Change a member's role",
    description: 'Only an owner grants or takes away the owner role. The last owner cannot be demoted.',
    errors: { 403: 'only an owner changes the owner role', 409: 'the last owner would be lost' },
  },
  ({ db, principal, params, body }) =>
    changeMemberRole(db, principal, params.memberId, body.role).then((member) => ({ member })),
);

export const DELETE = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    params: memberIdParams,
    response: removeMemberResponse,
    summary: 'Remove a member and their site grants',
    description: 'Only an owner removes an owner. The last owner cannot be removed.',
    errors: { 403: 'only an owner removes an owner', 409: 'the last owner would be lost' },
  },
  ({ db, principal, params }) => removeMember(db, principal, params.memberId),
);

export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
