/**
 * Storing the render pass's results: a page row per `PageScan` (scanned with its passes, or not
 * scanned with the reason) and a finding row per (page, rule, type), with the rule's WCAG
 * criteria, level, principle and standards filled from the rule metadata.
 *
 * Idempotent per (run, page): the page row is the marker. It is inserted, or turned from the
 * `pending` row the pass seeded into this result, and a page's findings are written only when that
 * happened, in the same transaction, so a batch done again after a crash neither duplicates rows
 * nor mixes two renders of a page.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { a11yFindings, a11yPages } from '@/lib/db/schema/a11y';
import { lookupAxeRule, type RuleLookup } from '../report/rules';
import type { PageScan, PageScanFinding } from './scan';

/**
 * Rows per INSERT statement. A finding row binds 15 parameters; Postgres allows 65,535 per
 * statement, so 1,000 rows (15,000 parameters) stays well inside it for both tables.
 */
export const STORE_ROWS_PER_INSERT = 1000;

export interface StoreTarget {
  tenantId: string;
  runId: string;
}

export interface StoreResult {
  /** Pages written by this call (a page already stored for the run is skipped). */
  pagesStored: number;
  /** Of those, pages scanned (the rest were recorded as not scanned). */
  pagesScanned: number;
  findingsStored: number;
}

type FindingInsert = typeof a11yFindings.$inferInsert;

export function findingRow(
  target: StoreTarget,
  pageUrl: string,
  finding: PageScanFinding,
  createdAt: number,
  lookup: RuleLookup = lookupAxeRule,
): FindingInsert {
  const rule = lookup(finding.rule);
  return {
    run_id: target.runId,
    tenant_id: target.tenantId,
    page_url: pageUrl,
    rule: finding.rule,
    impact: finding.impact,
    // Every criterion the rule maps to, in axe's order; `sc` is the one the report files it under.
    wcag: rule && rule.criteria.length > 0 ? rule.criteria.join(', ') : null,
    help: finding.help,
    help_url: finding.helpUrl,
    type: finding.type,
    count: finding.count,
    nodes: finding.nodes,
    created_at: createdAt,
    standards: {
      wcagLevel: rule?.wcagLevel ?? null,
      en301549: rule?.en301549 ?? false,
      section508: rule?.section508 ?? false,
    },
    sc: rule?.sc ?? null,
    principle: rule?.principle ?? null,
  };
}

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function storePageScans(
  db: Db,
  target: StoreTarget,
  scans: readonly PageScan[],
  lookup: RuleLookup = lookupAxeRule,
): Promise<StoreResult> {
  if (scans.length === 0) return { pagesStored: 0, pagesScanned: 0, findingsStored: 0 };
  const createdAt = Date.now();
  // The same URL twice in one batch would be one page: the first scan wins, as it would across batches.
  const byUrl = new Map<string, PageScan>();
  for (const scan of scans) if (!byUrl.has(scan.url)) byUrl.set(scan.url, scan);

  return db.transaction(async (tx) => {
    const inserted = new Set<string>();
    for (const batch of chunks([...byUrl.values()], STORE_ROWS_PER_INSERT)) {
      const rows = await tx
        .insert(a11yPages)
        .values(
          batch.map((scan) => ({
            run_id: target.runId,
            tenant_id: target.tenantId,
            page_url: scan.url,
            status: scan.status,
            reason: scan.status === 'not-scanned' ? scan.reason : null,
            passes: scan.status === 'scanned' ? [...scan.passes] : [],
            inapplicable: scan.status === 'scanned' ? [...scan.inapplicable] : [],
            created_at: createdAt,
          })),
        )
        // A row seeded `pending` by the pass becomes this result once; a stored result is never replaced.
        .onConflictDoUpdate({
          target: [a11yPages.run_id, a11yPages.page_url],
          set: {
            status: sql`excluded.status`,
            reason: sql`excluded.reason`,
            passes: sql`excluded.passes`,
            inapplicable: sql`excluded.inapplicable`,
            created_at: sql`excluded.created_at`,
          },
          setWhere: sql`${a11yPages.status} = 'pending'`,
        })
        .returning({ pageUrl: a11yPages.page_url });
      for (const row of rows) inserted.add(row.pageUrl);
    }

    const findings: FindingInsert[] = [];
    let pagesScanned = 0;
    for (const url of inserted) {
      const scan = byUrl.get(url);
      if (scan?.status !== 'scanned') continue;
      pagesScanned += 1;
      for (const finding of scan.findings) findings.push(findingRow(target, url, finding, createdAt, lookup));
    }
    for (const batch of chunks(findings, STORE_ROWS_PER_INSERT)) {
      await tx
        .insert(a11yFindings)
        .values(batch)
        .onConflictDoNothing({
          target: [a11yFindings.run_id, a11yFindings.page_url, a11yFindings.rule, a11yFindings.type],
        });
    }
    return { pagesStored: inserted.size, pagesScanned, findingsStored: findings.length };
  });
}
