import { SEO_CHECKS, SEO_IMPACTS, type SeoCheckId, type SeoImpact, type SeoIssue, seoCheck } from './checks';

export interface SeoReportPage {
  pageUrl: string;
  detail: string;
  value?: string | number;
}

export interface SeoReportCheck {
  check: SeoCheckId;
  title: string;
  impact: SeoImpact;
  help: string;
  /** Pages failing the check, by URL. */
  pages: SeoReportPage[];
  count: number;
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
 * The body of the SEO report: issues grouped by check, each listing its pages. A (page, check)
 * pair appears once even if the input repeats it. Ties between checks of the same impact and
 * count fall back to catalogue order, so the report reads the same on every request.
 */
export function buildSeoReport(issues: readonly SeoIssue[]): SeoReport {
  const pagesByCheck = new Map<SeoCheckId, Map<string, SeoReportPage>>();
  for (const issue of issues) {
    let pages = pagesByCheck.get(issue.check);
    if (!pages) {
      pages = new Map();
      pagesByCheck.set(issue.check, pages);
    }
    if (pages.has(issue.pageUrl)) continue;
    const page: SeoReportPage = { pageUrl: issue.pageUrl, detail: issue.detail };
    if (issue.value !== undefined) page.value = issue.value;
    pages.set(issue.pageUrl, page);
  }

  const checks = [...pagesByCheck].map(([id, pages]): SeoReportCheck => {
    const { title, impact, help } = seoCheck(id);
    const sortedPages = [...pages.values()].sort((a, b) => compareText(a.pageUrl, b.pageUrl));
    return { check: id, title, impact, help, pages: sortedPages, count: sortedPages.length };
  });
  checks.sort(
    (a, b) =>
      rank(IMPACT_RANK, a.impact) - rank(IMPACT_RANK, b.impact) ||
      b.count - a.count ||
      rank(CATALOGUE_RANK, a.check) - rank(CATALOGUE_RANK, b.check),
  );

  return { summary: summarize(checks), checks };
}

function summarize(checks: readonly SeoReportCheck[]): SeoReportSummary {
  const summary: SeoReportSummary = {
    issueCount: 0,
    pagesAffected: 0,
    checksFailing: checks.length,
    critical: 0,
    serious: 0,
    moderate: 0,
    minor: 0,
  };
  const affected = new Set<string>();
  for (const check of checks) {
    summary.issueCount += check.count;
    summary[check.impact] += check.count;
    for (const page of check.pages) affected.add(page.pageUrl);
  }
  summary.pagesAffected = affected.size;
  return summary;
}

function rank<K>(ranks: ReadonlyMap<K, number>, key: K): number {
  return ranks.get(key) ?? Number.MAX_SAFE_INTEGER;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
