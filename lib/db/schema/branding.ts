import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { bytes, epochMs } from './columns';

/**
 * The organization's logo, which brands its monthly reports (lib/orgs/logo.ts checks it): at most
 * one per organization, PNG or JPEG bytes as uploaded. A table of its own rather than better-auth's
 * `organizations.logo` text column, so the bytes are read only where the logo is shown, and the
 * auth layer, which could write that column, never holds them.
 */
export const organizationLogos = pgTable('organization_logos', {
  tenant_id: text('tenant_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  content_type: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  image: bytes('image').notNull(),
  size: integer('size').notNull(),
  /** SHA-256 of the bytes, hex: names the version (the dashboard's image, a cache key). */
  sha256: text('sha256').notNull(),
  updated_at: epochMs('updated_at').notNull(),
});
