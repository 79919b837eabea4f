/**
 * A status page's slug is the last segment of its public address (/status/{slug}) and unique across
 * the service. Lowercase letters, digits and inner hyphens, 3-63 characters (a DNS label's shape, so
 * a page can later move to {slug}.status.example without a rename). Reserved words are names people
 * would take for the service's own pages (or that phishing would like to use).
 */
export const SLUG_MIN = 3;
export const SLUG_MAX = 63;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'about',
  'abuse',
  'account',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'badge',
  'billing',
  'blog',
  'dashboard',
  'docs',
  'edit',
  'feed',
  'help',
  'login',
  'logout',
  'new',
  'official',
  'root',
  'security',
  'settings',
  'signin',
  'signup',
  'sitewatch',
  'static',
  'status',
  'summary',
  'support',
  'system',
  'www',
]);

/** Why `slug` cannot be a page's address, or null when it can. */
export function slugProblem(slug: string): string | null {
  if (slug.length < SLUG_MIN) return `must be at least ${SLUG_MIN} characters`;
  if (slug.length > SLUG_MAX) return `must be at most ${SLUG_MAX} characters`;
  if (!SLUG_PATTERN.test(slug))
    return 'must be lowercase letters, digits and hyphens, starting and ending with a letter or digit';
  if (slug.includes('--')) return 'must not hold two hyphens in a row';
  if (RESERVED_SLUGS.has(slug)) return 'is reserved; choose another';
  return null;
}
