import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { runs } from './runs';
import { sites } from './sites';

/** One example element of a finding as stored: its selector, and the snippet and summary axe gave. */
export type StoredA11yNode = { selector: string; snippet?: string; summary?: string };

export const a11yFindings = pgTable(
  'a11y_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    run_id: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    page_url: text('page_url').notNull(),
    rule: text('rule').notNull(),
    impact: text('impact', { enum: ['critical', 'serious', 'moderate', 'minor'] }),
    wcag: text('wcag'),
    help: text('help').notNull(),
    help_url: text('help_url').notNull(),
    type: text('type', { enum: ['violation', 'incomplete'] }).notNull(),
    count: integer('count').notNull(),
    /** Example elements axe matched, capped (lib/a11y/findings.ts `A11yNode`). */
    nodes: jsonb('nodes').$type<StoredA11yNode[]>().notNull().default([]),
    created_at: epochMs('created_at').notNull(),
    standards: jsonb('standards').$type<{
      wcagLevel: 'A' | 'AA' | 'AAA' | null;
      en301549: boolean;
      section508: boolean;
    }>(),
    sc: text('sc'),
    principle: text('principle'),
  },
  (t) => [
    index('a11y_findings_run_idx').on(t.tenant_id, t.run_id, t.page_url),
    // One row per (run, page, rule, type): a batch stored again after a crash must not add rows.
    uniqueIndex('a11y_findings_run_page_rule_idx').on(t.run_id, t.page_url, t.rule, t.type),
  ],
);

/**
 * One row per page the render pass tried in a run: scanned (with the rule ids that passed, which the
 * score and the coverage matrix need) or not scanned with the reason in plain words.
 */
export const a11yPages = pgTable(
  'a11y_pages',
  {
    run_id: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    page_url: text('page_url').notNull(),
    /** `pending` from the pass's seeding until the page is rendered (the report ignores pending rows). */
    status: text('status', { enum: ['pending', 'scanned', 'not-scanned'] }).notNull(),
    reason: text('reason'),
    passes: jsonb('passes').$type<string[]>().notNull().default([]),
    inapplicable: jsonb('inapplicable').$type<string[]>().notNull().default([]),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('a11y_pages_run_page_idx').on(t.run_id, t.page_url),
    index('a11y_pages_tenant_run_idx').on(t.tenant_id, t.run_id),
    // The pass takes its next batch from here, in URL order.
    index('a11y_pages_pending_idx').on(t.run_id, t.page_url).where(sql`${t.status} = 'pending'`),
  ],
);

export const a11ySuppressions = pgTable(
  'a11y_suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
    selector: text('selector'),
    page_url: text('page_url'),
    reason: text('reason'),
    created_by: text('created_by'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [index('a11y_suppressions_site_idx').on(t.tenant_id, t.site_id)],
);

export const a11yManualChecks = pgTable(
  'a11y_manual_checks',
  {
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    sc: text('sc').notNull(),
    status: text('status', { enum: ['verified', 'not_applicable', 'failed'] }).notNull(),
    note: text('note'),
    by: text('by'),
    at: epochMs('at').notNull(),
  },
  (t) => [uniqueIndex('a11y_manual_checks_site_sc_idx').on(t.tenant_id, t.site_id, t.sc)],
);
