import { eq } from 'drizzle-orm';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { authFor, getAuth } from '@/lib/auth/auth';
import { type Principal, principalOfSession, type Role } from '@/lib/auth/principal';
import { type Db, getDb } from '@/lib/db/client';
import { members, organizations } from '@/lib/db/schema';
import { ForbiddenError } from '@/lib/errors';

export type DashboardUser = { id: string; email: string; name: string };
/** An organization the user belongs to, with their role in it. */
export type OrganizationSummary = { id: string; name: string; slug: string; role: Role };

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

/**
 * The user's organizations by name, in one join. (better-auth's listOrganizations would look the
 * session up again and then read each organization on its own.)
 */
async function organizationsOf(db: Db, userId: string): Promise<OrganizationSummary[]> {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      role: members.role,
    })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(eq(members.userId, userId));
  return rows.map((row) => ({ ...row, role: row.role as Role })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The signed-in user, or null; for pages that also serve signed-out visitors (invitations). */
export const currentUser = cache(async (): Promise<DashboardUser | null> => {
  const requestHeaders = await headers();
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
});

/**
 * The dashboard's view of a request: session, principal of the active organization and the user's
 * organizations; null without a session. A plain function of the database and the request headers
 * (so a test can count its queries); pages reach it through `dashboardContext`.
 */
export async function loadDashboardContext(
  db: Db,
  requestHeaders: Headers,
): Promise<DashboardContext | OrphanContext | null> {
  // One session lookup serves the user, their organizations and the principal.
  const session = await authFor(db).api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const user = { id: session.user.id, email: session.user.email, name: session.user.name };
  const organizations = await organizationsOf(db, session.user.id);
  let principal: Principal;
  try {
    principal = await principalOfSession(db, session);
  } catch (error) {
    // Forbidden here means no active organization, or one the user has left: let them pick another.
    if (error instanceof ForbiddenError) return { user, organizations };
    throw error;
  }
  const active = organizations.find((o) => o.id === principal.tenantId);
  if (!active || !principal.role) return { user, organizations };
  return { db, user, principal, role: principal.role, organizations, activeOrganization: active };
}

/**
 * The dashboard's view of this request (`loadDashboardContext`). Redirects to sign-in without a
 * session. Cached per request so the layout and the page share one lookup.
 */
export const dashboardContext = cache(async (): Promise<DashboardContext | OrphanContext> => {
  const context = await loadDashboardContext(await getDb(), await headers());
  if (!context) redirect('/sign-in');
  return context;
});

export const isCompleteContext = (c: DashboardContext | OrphanContext): c is DashboardContext =>
  'principal' in c;

/** For pages inside the dashboard layout, which has already handled the orphan case. */
export async function requireDashboard(): Promise<DashboardContext> {
  const context = await dashboardContext();
  if (!isCompleteContext(context)) redirect('/choose-organization');
  return context;
}
