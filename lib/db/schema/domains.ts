import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';

/*
 * Domain registrations (lib/uptime/domain-expiry.ts, lib/uptime/rdap.ts). A domain's registration
 * is public data, so these tables belong to no tenant: one row per registrable domain, whichever
 * organizations monitor hosts under it. What a tenant sees of it is copied onto its own monitors.
 */

/** IANA's RDAP bootstrap files (RFC 9224), one row per registry file; only `dns` is read. */
export const rdapBootstrap = pgTable('rdap_bootstrap', {
  registry: text('registry').primaryKey(),
  /** Each label suffix the file lists (`com`, `co.uk`) and its RDAP base URLs. */
  services: jsonb('services').$type<Record<string, string[]>>().notNull(),
  /** The last successful read; null before the first. */
  fetched_at: epochMs('fetched_at'),
  /** The last attempt, and its failure (null when it succeeded). */
  checked_at: epochMs('checked_at'),
  error: text('error'),
  /** When it is read again (a day after a read, an hour after a failure); also the readers' lease. */
  next_fetch_at: epochMs('next_fetch_at').notNull(),
});

/** What a registrable domain's registry said of it, through RDAP. */
export const domainRegistrations = pgTable(
  'domain_registrations',
  {
    /** The registrable domain (eTLD+1), ASCII (punycode), lower case. */
    domain: text('domain').primaryKey(),
    /**
     * `pending`: not read yet; `found`: the registry's record has an expiry (`expires_at`);
     * `no_expiry`: its record has none; `not_found`: the registry has no such domain; `no_rdap`: IANA's
     * bootstrap lists no RDAP server for its suffix (many country codes); `failed`: the last read
     * failed (`note` says why; `expires_at` keeps the last date read).
     */
    state: text('state', { enum: ['pending', 'found', 'no_expiry', 'not_found', 'no_rdap', 'failed'] })
      .notNull()
      .default('pending'),
    expires_at: epochMs('expires_at'),
    /** The state in words, for the monitor page (null when `found`). */
    note: text('note'),
    /** The RDAP URL last asked. */
    rdap_url: text('rdap_url'),
    /** The last attempt; the last answer read (null before the first). */
    checked_at: epochMs('checked_at'),
    read_at: epochMs('read_at'),
    /** When it is due again: a day after an answer, sooner after a failure (backoff), or when a 429 said. */
    next_check_at: epochMs('next_check_at').notNull(),
    /** Failed reads in a row (the backoff's exponent). */
    failures: integer('failures').notNull().default(0),
    /** Internal: the refresh that holds it (lib/uptime/domain-expiry.ts); free when null or past. */
    lease_until: epochMs('lease_until'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [index('domain_registrations_due_idx').on(t.next_check_at)],
);
