/**
 * What an organization's branding may be. A module of its own, importing nothing, so the dashboard's
 * forms in the browser read the same numbers the API checks.
 */

/** Longest organization name accepted, in characters (mails show at most 60: lib/orgs/name.ts). */
export const ORGANIZATION_NAME_MAX = 100;

/** Largest logo accepted, in bytes: a report header's logo, small enough to travel inside a JSON body. */
export const LOGO_MAX_BYTES = 100 * 1024;

/** The logo formats accepted. SVG is refused: it is a document that can carry script and links. */
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
