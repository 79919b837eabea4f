import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getAuth } from '@/lib/auth/auth';
import { type Principal, type Role, resolvePrincipal } from '@/lib/auth/principal';
import { type Db, getDb } from '@/lib/db/client';
import { ForbiddenError, UnauthenticatedError } from '@/lib/errors';

export type DashboardUser = { id: string; email: string; name: string };
export type OrganizationSummary = { id: string; name: string; slug: string };

/** Everything a dashboard page needs to know about who is looking. */
export type DashboardContext = {
  db: Db;
  user: DashboardUser;
  principal: Principal;
  role: Role;
  organizations: OrganizationSummary[];
  activeOrganization: OrganizationSummary;
};

/** A signed-in user who has no usable active organization (e.g. removed from it). */
export type OrphanContext = { user: DashboardUser; organizations: OrganizationSummary[] };

async function loadSession() {
  const requestHeaders = await headers();
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const organizations = await auth.api.listOrganizations({ headers: requestHeaders });
  return {
    requestHeaders,
    user: { id: session.user.id, email: session.user.email, name: session.user.name },
    organizations: organizations
      .map((o) => ({ id: o.id, name: o.name, slug: o.slug }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The signed-in user, or null; for pages that also serve signed-out visitors (invitations). */
export const currentUser = cache(async (): Promise<DashboardUser | null> => {
  const requestHeaders = await headers();
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
});

/**
 * The dashboard's view of the request: session, principal of the active organization and the
 * user's organizations. Redirects to sign-in without a session. Cached per request so the layout
 * and the page share one lookup.
 */
export const dashboardContext = cache(async (): Promise<DashboardContext | OrphanContext> => {
  const loaded = await loadSession();
  if (!loaded) redirect('/sign-in');
  const db = await getDb();
  let principal: Principal;
  try {
    principal = await resolvePrincipal(db, loaded.requestHeaders);
  } catch (error) {
    // Forbidden here means no active organization, or one the user has left: let them pick another.
    if (error instanceof ForbiddenError) {
      return { user: loaded.user, organizations: loaded.organizations };
    }
    if (error instanceof UnauthenticatedError) redirect('/sign-in');
    throw error;
  }
  const active = loaded.organizations.find((o) => o.id === principal.tenantId);
  if (!active || !principal.role) return { user: loaded.user, organizations: loaded.organizations };
  return {
    db,
    user: loaded.user,
    principal,
    role: principal.role,
    organizations: loaded.organizations,
    activeOrganization: active,
  };
});

export const isCompleteContext = (c: DashboardContext | OrphanContext): c is DashboardContext =>
  'principal' in c;

/** For pages inside the dashboard layout, which has already handled the orphan case. */
export async function requireDashboard(): Promise<DashboardContext> {
  const context = await dashboardContext();
  if (!isCompleteContext(context)) redirect('/choose-organization');
  return context;
}
