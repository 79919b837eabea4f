import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { members, organizations, users } from './auth';
import { epochMs } from './columns';
import { sites } from './sites';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the secret, shown so people can tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole secret, hex. The secret itself is never stored. */
    secret_hash: text('secret_hash').notNull(),
    /** null = every site of the organization. */
    site_ids: jsonb('site_ids').$type<string[] | null>(),
    expires_at: epochMs('expires_at'),
    created_at: epochMs('created_at').notNull(),
    last_used_at: epochMs('last_used_at'),
    revoked_at: epochMs('revoked_at'),
    created_by: text('created_by'),
  },
  (t) => [
    uniqueIndex('api_keys_hash_idx').on(t.secret_hash),
    index('api_keys_tenant_idx').on(t.tenant_id, t.created_at),
  ],
);

/** What a `member` role may do beyond nothing: crawl permission. Owners and admins ignore it. */
export const memberAccess = pgTable('member_access', {
  member_id: text('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  tenant_id: text('tenant_id').notNull(),
  can_crawl: integer('can_crawl').notNull().default(0),
  updated_at: epochMs('updated_at').notNull(),
});

/** A member's per-site allowlist (members are default-deny). */
export const memberSiteGrants = pgTable(
  'member_site_grants',
  {
    member_id: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.member_id, t.site_id] }),
    index('member_site_grants_tenant_idx').on(t.tenant_id, t.site_id),
  ],
);

export const limitRequests = pgTable(
  'limit_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    current_limit: integer('current_limit').notNull(),
    requested_limit: integer('requested_limit').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'denied'] })
      .notNull()
      .default('pending'),
    created_at: epochMs('created_at').notNull(),
    decided_at: epochMs('decided_at'),
  },
  (t) => [
    index('limit_requests_user_idx').on(t.user_id, t.kind, t.created_at),
    // The subject of a user_orgs limit is the user: one pending request per user and kind.
    uniqueIndex('limit_requests_one_pending_idx').on(t.user_id, t.kind).where(sql`${t.status} = 'pending'`),
  ],
);
