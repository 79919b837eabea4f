import { SEO_CHECKS, SEO_IMPACTS, type SeoCheckId, type SeoImpact, seoCheck } from './checks';

export interface SeoReportPage {
  pageUrl: string;
  detail: string;
  value?: string | number;
}

/** One failing check: every page counted, a page of them listed. */
export interface SeoCheckPages {
  check: SeoCheckId;
  /** Pages failing the check, in all. */
  count: number;
  /** A page of the pages failing the check, by URL. */
  pages: SeoReportPage[];
  /** The cursor of the pages after `pages` (GET .../seo-report?check=&cursor=); null: none left. */
  nextCursor: string | null;
}

export interface SeoReportCheck extends SeoCheckPages {
  title: string;
  impact: SeoImpact;
  help: string;
}

export interface SeoReportSummary {
  issueCount: number;
  /** Distinct pages with at least one issue. */
  pagesAffected: number;
  /** Distinct checks with at least one failing page. */
  checksFailing: number;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
}

export interface SeoReport {
  summary: SeoReportSummary;
  /** Most severe impact first, then the checks failing on the most pages. */
  checks: SeoReportCheck[];
}

const IMPACT_RANK = new Map<SeoImpact, number>(SEO_IMPACTS.map((impact, rank) => [impact, rank]));
const CATALOGUE_RANK = new Map<SeoCheckId, number>(SEO_CHECKS.map((check, rank) => [check.id, rank]));

/**
 * The checks as the report lists them: with the catalogue's title, impact and help, most severe
 * first, then those failing on the most pages. Ties fall back to catalogue order, so the report
 * reads the same on every request.
 */
export function seoReportChecks(checks: readonly SeoCheckPages[]): SeoReportCheck[] {
  const listed = checks.map((c): SeoReportCheck => {
    const { title, impact, help } = seoCheck(c.check);
    return { check: c.check, title, impact, help, pages: c.pages, count: c.count, nextCursor: c.nextCursor };
  });
  return listed.sort(
    (a, b) =>
      rank(IMPACT_RANK, a.impact) - rank(IMPACT_RANK, b.impact) ||
      b.count - a.count ||
      rank(CATALOGUE_RANK, a.check) - rank(CATALOGUE_RANK, b.check),
  );
}

/** The headline counts from each failing check's page count and the distinct pages affected. */
export function seoSummary(counts: ReadonlyMap<SeoCheckId, number>, pagesAffected: number): SeoReportSummary {
  const summary: SeoReportSummary = {
    issueCount: 0,
    pagesAffected,
    checksFailing: 0,
    critical: 0,
    serious: 0,
    moderate: 0,
    minor: 0,
  };
  for (const [check, count] of counts) {
    if (count <= 0) continue;
    summary.checksFailing++;
    summary.issueCount += count;
    summary[seoCheck(check).impact] += count;
  }
  return summary;
}

function rank<K>(ranks: ReadonlyMap<K, number>, key: K): number {
  return ranks.get(key) ?? Number.MAX_SAFE_INTEGER;
}
