/** The keyset cursors live below the domains that page lists (crawl, notifications): lib/db/cursor. */
export { decodeCursor, encodeCursor } from '@/lib/db/cursor';
