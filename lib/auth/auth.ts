import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { nextCookies } from 'better-auth/next-js';
import { bearer, emailOTP, organization } from 'better-auth/plugins';
import { and, eq } from 'drizzle-orm';
import { config } from '@/lib/config';
import { authSecret } from '@/lib/crypto/auth-secret';
import { type Db, getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { invitationMessage, signInCodeMessage } from '@/lib/email/templates';
import { sendMail } from '@/lib/email/transport';
import { offerAlerts } from '@/lib/orgs/alert-offers';
import { mailOrganizationName } from '@/lib/orgs/name';
import { initialActiveOrganization, rememberActiveOrganization } from './active-org';
import { clientAddressOptions } from './client-address';
import { refuseWhenCodeCapReached } from './code-limit';
import { everyInvitationNew, takeInvitationSend } from './invitation-limit';
import { atOrganizationLimit } from './org-limit';
import { createPersonalOrganization } from './personal-org';
import { isAdminRole, type Role } from './principal';
import { refuseAllButName } from './profile';
import { routeAllowlist } from './routes';

export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 300;
export const OTP_ATTEMPTS = 3;

function buildAuth(db: Db) {
  const c = config();
  return betterAuth({
    appName: 'Sitewatch',
    baseURL: c.appUrl,
    secret: authSecret(c),
    trustedOrigins: c.trustedOrigins,
    database: drizzleAdapter(db, { provider: 'pg', schema, usePlural: true }),
    advanced: {
      // better-auth skips its origin (CSRF) check when NODE_ENV is test; said explicitly, the tests
      // exercise the same check production runs.
      disableOriginCheck: false,
      database: { generateId: () => randomUUID() },
      ipAddress: clientAddressOptions(c.trustedProxy),
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // Always on, tests included: limits are per client address (see lib/auth/client-address.ts).
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 100,
      customRules: {
        '/email-otp/send-verification-otp': { window: 60, max: 3 },
        '/sign-in/email-otp': { window: 60, max: 10 },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/update-user') return refuseAllButName(ctx.body);
        if (ctx.path === '/organization/invite-member') return everyInvitationNew(ctx.body);
        if (ctx.path !== '/email-otp/send-verification-otp') return;
        // The cap itself holds in sendVerificationOTP, but better-auth logs a refusal from there and
        // still answers success. Checking here too answers 429, and refuses before a new code is
        // generated, so a flood past the cap cannot replace the code the address's owner is typing.
        const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? '');
        if (email) await refuseWhenCodeCapReached(db, email);
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // Everyone lands in an organization of their own on first sign-in.
          after: async (user) => {
            await createPersonalOrganization(db, { userId: user.id, email: user.email });
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const activeOrganizationId = await initialActiveOrganization(db, session.userId);
            return { data: { ...session, activeOrganizationId } };
          },
        },
        update: {
          // Every switch of the organization plugin (set-active, create, accept-invitation) is this
          // update of the session, made by a request whose signed-in user is in the endpoint context.
          // Refreshes of a session's expiry carry no activeOrganizationId, so a second device's
          // session never overwrites the switch made on the first.
          before: async (data, context) => {
            const userId = context?.context.session?.user.id;
            const organizationId = data.activeOrganizationId;
            if (userId && typeof organizationId === 'string') {
              await rememberActiveOrganization(db, { userId, organizationId });
            }
          },
        },
      },
    },
    plugins: [
      // First, so a route the product does not serve is refused before any other plugin sees it.
      routeAllowlist(),
      emailOTP({
        otpLength: OTP_LENGTH,
        expiresIn: OTP_TTL_SECONDS,
        allowedAttempts: OTP_ATTEMPTS,
        storeOTP: 'hashed',
        // Every code better-auth sends comes through here, whatever the route, type or server call,
        // so this is where the per-address cap cannot be bypassed.
        async sendVerificationOTP({ email, otp }) {
          await refuseWhenCodeCapReached(db, email);
          await sendMail(db, signInCodeMessage(email, otp));
        },
      }),
      organization({
        creatorRole: 'owner',
        organizationLimit: (user) => atOrganizationLimit(db, user.id),
        organizationHooks: {
          // After better-auth's own checks (a member who may invite, not already a member), before
          // the invitation is stored: a refusal leaves nothing behind.
          async beforeCreateInvitation({ invitation }) {
            await takeInvitationSend(db, {
              organizationId: invitation.organizationId,
              email: invitation.email,
            });
          },
          // Who joins as an owner or admin is offered the organization's alerts (offered, not added).
          async afterAcceptInvitation({ member, organization, user }) {
            if (isAdminRole(member.role as Role))
              await offerAlerts(db, { tenantId: organization.id, userId: user.id });
          },
          // The cap is on memberships: without this, invitations would let one account join any number.
          async beforeAcceptInvitation({ user }) {
            if (await atOrganizationLimit(db, user.id)) {
              throw new APIError('FORBIDDEN', {
                message:
                  'you already belong to as many organizations as this account may: ask an owner to remove you from one, or request a higher limit (POST /v1/me/limit-requests)',
              });
            }
          },
        },
        invitationExpiresIn: 60 * 60 * 48,
        cancelPendingInvitationsOnReInvite: true,
        async sendInvitationEmail(data) {
          await sendMail(
            db,
            invitationMessage({
              to: data.email,
              organizationName: mailOrganizationName(data.organization.name),
              inviterEmail: data.inviter.user.email,
              role: data.role,
              acceptUrl: `${c.appUrl}/invite/${data.id}`,
            }),
          );
        },
      }),
      bearer(),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof buildAuth>;

const cache = new WeakMap<Db, Auth>();

/** The auth instance bound to a database (one per database, built on first use). */
export function authFor(db: Db): Auth {
  let auth = cache.get(db);
  if (!auth) {
    auth = buildAuth(db);
    cache.set(db, auth);
  }
  return auth;
}

export async function getAuth(): Promise<Auth> {
  return authFor(await getDb());
}

export async function isMember(
  db: Db,
  { organizationId, userId }: { organizationId: string; userId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.members.id })
    .from(schema.members)
    .where(and(eq(schema.members.organizationId, organizationId), eq(schema.members.userId, userId)))
    .limit(1);
  return Boolean(row);
}
