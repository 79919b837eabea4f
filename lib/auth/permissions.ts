import { ForbiddenError } from '@/lib/errors';
import { isAdminRole, type Principal } from './principal';

/**
 * What an action needs. Keys are not role-gated (spec rule 4): they act with management capability
 * within their site scope. Session roles: owner/admin manage, members read their granted sites and
 * crawl only with canCrawl.
 */
export type Permission =
  | 'read'
  | 'manage'
  | 'crawl'
  /** Register sites: owner/admin sessions and unscoped keys. */
  | 'create-site'
  /** Session-only administration (keys, members, billing, usage, notifications). */
  | 'admin'
  /**
   * What the organization publishes as a whole (status pages, which may list any site's monitors):
   * owner/admin sessions and unscoped keys. A site-scoped key or a member would otherwise see or
   * publish monitors of sites outside their grant.
   */
  | 'publish';

export function can(p: Principal, permission: Permission): boolean {
  const privilegedRole = isAdminRole(p.role);
  switch (permission) {
    case 'read':
      return true;
    case 'manage':
      return p.via === 'key' || privilegedRole;
    case 'crawl':
      return p.via === 'key' || privilegedRole || p.canCrawl;
    case 'create-site':
    case 'publish':
      return (p.via === 'key' && p.siteIds === 'all') || privilegedRole;
    case 'admin':
      return p.via === 'session' && privilegedRole;
  }
}

const denial: Record<Permission, string> = {
  read: 'not allowed',
  manage: 'your role cannot manage this organization: ask an owner or admin',
  crawl: 'your role cannot start crawls: ask an owner or admin for crawl permission',
  'create-site': 'only owners, admins and API keys without a site scope can register sites',
  admin: 'only owners and admins can do this',
  publish: 'only owners, admins and API keys without a site scope can manage status pages',
};

export function requirePermission(p: Principal, permission: Permission): void {
  if (!can(p, permission)) throw new ForbiddenError(denial[permission]);
}
