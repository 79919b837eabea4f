import type { BetterAuthPlugin } from 'better-auth';

/**
 * The better-auth routes the product serves over HTTP, each one chosen and covered by a test
 * (tests/integration/auth-security.test.ts walks every other endpoint better-auth has and expects 404).
 * There are no passwords, no email changes and no account deletion: sign-in is by emailed code only,
 * so every route for those (password reset, change-email, verify-email, delete-user...) stays off.
 * The account page uses update-user (the display name only: lib/auth/profile.ts refuses anything
 * else) and revoke-other-sessions; it lists and ends single sessions through /v1/me/sessions, by id
 * (lib/auth/sessions.ts): list-sessions would hand every session's token to the page, since
 * revoke-session takes one.
 * Role changes, removals and leaving go through /v1/members, which holds the organization lock and
 * keeps the last owner. Server code calling `auth.api.*` directly is not affected by this list.
 */
export const AUTH_ROUTES: ReadonlySet<string> = new Set([
  '/email-otp/send-verification-otp',
  '/sign-in/email-otp',
  '/get-session',
  '/sign-out',
  '/update-user',
  '/revoke-other-sessions',
  '/organization/create',
  '/organization/set-active',
  '/organization/invite-member',
  '/organization/list-invitations',
  '/organization/accept-invitation',
  '/organization/cancel-invitation',
]);

/**
 * Answers 404 to every request whose path is not exactly an allowed route. Matching the raw path
 * (no trailing slash, no doubled slash, no percent-encoding, same case) leaves no spelling of a
 * disabled route that the router would still resolve.
 */
export function routeAllowlist(): BetterAuthPlugin {
  return {
    id: 'sitewatch-route-allowlist',
    async onRequest(request, ctx) {
      // The router's own base path (`/api/auth`), read the way better-auth's router reads it.
      const basePath = new URL(ctx.baseURL).pathname.replace(/\/$/, '');
      const { pathname } = new URL(request.url);
      const route = pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : null;
      if (route !== null && AUTH_ROUTES.has(route)) return;
      return {
        response: Response.json({ message: 'not found' }, { status: 404 }),
      };
    },
  };
}
