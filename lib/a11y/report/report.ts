/**
 * The accessibility report of a site (GET /v1/sites/{id}/a11y-report): its latest run's evaluation
 * (`evaluate.ts`) as the spec's resources, with the page summaries, coverage, manual checks and the
 * summary tallies.
 */
import { and, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { compileExcludes } from '@/lib/crawl/engine/url';
import type { Db } from '@/lib/db/client';
import { a11yManualChecks, type a11ySuppressions } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { type A11yCoverage, coverageMatrix } from './coverage';
import {
  type A11yUnscannedPage,
  evaluateRun,
  type FindingRow,
  findingKey,
  latestA11yRun,
  type RunEvaluation,
  resolvedSincePrevious,
} from './evaluate';
import type { A11yFinding } from './findings';
import { type ManualCheck, manualChecksOverlay } from './manual-checks';
import { lookupAxeRule } from './rules';
import { gainByRule, scorePage, scoreSite } from './score';
import {
  byPrinciple,
  type ComplianceTallies,
  complianceTallies,
  impactCounts,
  type PrincipleTally,
} from './summary';
import type { A11yVerdict } from './verdict';
import { siteVerdict } from './verdict';
import { criterionBySc, type WcagPrinciple } from './wcag';

/** The Accessibility finding resource as the spec lists it (count and nodes after suppressions). */
export function findingResource(row: FindingRow, shown: A11yFinding) {
  return {
    id: row.id,
    run_id: row.run_id,
    tenant_id: row.tenant_id,
    page_url: row.page_url,
    rule: row.rule,
    impact: row.impact,
    wcag: row.wcag,
    help: row.help,
    help_url: row.help_url,
    type: row.type,
    count: shown.count,
    // Keys picked in the spec's order: jsonb keeps an object's keys in an order of its own.
    nodes: JSON.stringify(
      shown.nodes.map(({ selector, snippet, summary }) => ({ selector, snippet, summary })),
    ),
    created_at: row.created_at,
    standards: row.standards ?? { wcagLevel: null, en301549: false, section508: false },
    sc: row.sc,
    principle: row.principle,
  };
}
export type A11yFindingResource = ReturnType<typeof findingResource>;

/** The Accessibility suppression resource as the spec lists it. */
export function suppressionResource(row: typeof a11ySuppressions.$inferSelect) {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    site_id: row.site_id,
    rule: row.rule,
    selector: row.selector,
    page_url: row.page_url,
    reason: row.reason,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}
export type A11ySuppressionResource = ReturnType<typeof suppressionResource>;

/** In the report, a suppression also says how many of the latest run's findings it hides. */
function reportedSuppression(row: typeof a11ySuppressions.$inferSelect, matchedCount: number) {
  return { ...suppressionResource(row), matchedCount };
}
type ReportedSuppression = ReturnType<typeof reportedSuppression>;

export interface A11yPageSummary {
  url: string;
  score: number;
  issues: number;
  violations: number;
  needsReview: number;
}

export interface A11ySummary {
  /** Recomputed after suppressions and excludePaths; null when no page was scanned. */
  score: number | null;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
  pagesScanned: number;
  verdict: A11yVerdict;
  byPrinciple: Record<WcagPrinciple, PrincipleTally>;
  resolvedSinceLastScan: number;
  compliance: ComplianceTallies;
}

export interface A11yReport {
  run: RunResource;
  issues: A11yFindingResource[];
  descriptions: Record<string, string>;
  w3cUrls: Record<string, string>;
  gainByRule: Record<string, number>;
  byPage: A11yPageSummary[];
  /** Pages of the run not scanned, with the reason; excluded pages left out. Not in the spec. */
  notScanned: A11yUnscannedPage[];
  coverage: A11yCoverage;
  manualChecks: Record<string, ManualCheck>;
  summary: A11ySummary;
  suppressions: ReportedSuppression[];
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pageSummaries(evaluation: RunEvaluation): A11yPageSummary[] {
  const tallies = new Map<string, { violations: number; needsReview: number }>();
  for (const finding of evaluation.visible) {
    const tally = tallies.get(finding.pageUrl) ?? { violations: 0, needsReview: 0 };
    if (finding.type === 'violation') tally.violations += 1;
    else tally.needsReview += 1;
    tallies.set(finding.pageUrl, tally);
  }
  return evaluation.pages
    .map((page) => {
      const tally = tallies.get(page.url) ?? { violations: 0, needsReview: 0 };
      return {
        url: page.url,
        score: scorePage(page),
        issues: tally.violations + tally.needsReview,
        ...tally,
      };
    })
    .sort((a, b) => a.score - b.score || b.violations - a.violations || byText(a.url, b.url));
}

/** GET /v1/sites/{id}/a11y-report. */
export async function getA11yReport(db: Db, principal: Principal, siteId: string): Promise<A11yReport> {
  const site = await getVisibleSite(db, principal, siteId);
  const run = await latestA11yRun(db, site, { withResults: true });
  if (!run) throw new NotFoundError('no accessibility scan has stored results for this site yet');
  const isExcluded = compileExcludes(site.exclude_paths);
  const current = await evaluateRun(db, site, run, isExcluded);

  const resolved = await resolvedSincePrevious(db, site, run, current, isExcluded);

  const issues = current.visible
    .map((finding) => findingResource(current.rows.get(findingKey(finding))!, finding))
    .sort((a, b) => byText(a.page_url, b.page_url) || byText(a.rule, b.rule) || byText(a.type, b.type));
  const descriptions: Record<string, string> = {};
  const w3cUrls: Record<string, string> = {};
  for (const issue of issues) {
    const rule = lookupAxeRule(issue.rule);
    descriptions[issue.rule] = rule?.description ?? issue.help;
    const criterion = rule?.sc ? criterionBySc(rule.sc) : undefined;
    if (criterion) w3cUrls[issue.rule] = criterion.understandingUrl;
  }

  const checks = await db
    .select()
    .from(a11yManualChecks)
    .where(and(eq(a11yManualChecks.tenant_id, site.tenant_id), eq(a11yManualChecks.site_id, site.id)));
  const score = scoreSite(current.pages);
  const manualChecks = manualChecksOverlay(
    new Map(checks.map((c) => [c.sc, { status: c.status, note: c.note, by: c.by, at: c.at }])),
  );
  return {
    run: runResource(run),
    issues,
    descriptions,
    w3cUrls,
    gainByRule: score === null ? {} : gainByRule(current.pages),
    byPage: pageSummaries(current),
    notScanned: current.notScanned,
    coverage: coverageMatrix(current.pages, manualChecks),
    manualChecks,
    summary: {
      score,
      ...impactCounts(current.visible),
      pagesScanned: current.pages.length,
      verdict: siteVerdict(current.visible, current.pages.length),
      byPrinciple: byPrinciple(current.visible),
      resolvedSinceLastScan: resolved,
      compliance: complianceTallies(current.visible),
    },
    suppressions: current.suppressions.map((s) => reportedSuppression(s, current.matchedCount.get(s) ?? 0)),
  };
}
