import type { SeoImpact, SeoIssue } from './checks';

/** Points one failing check takes off the page it fails on. */
export const IMPACT_WEIGHTS: Readonly<Record<SeoImpact, number>> = {
  critical: 40,
  serious: 20,
  moderate: 8,
  minor: 3,
};

export interface SeoScore {
  /** 0-100; null when no page was scanned. */
  score: number | null;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
  issueCount: number;
}

/**
 * SEO score of a run, 0 to 100.
 *
 *     page score  = max(0, 100 - sum of IMPACT_WEIGHTS[impact] over the checks failing on the page)
 *     site score  = floor(average page score over the pages scanned)
 *
 * Weights: critical 40, serious 20, moderate 8, minor 3. Pages with no issues score 100.
 *
 * Why this shape:
 * - Averaging over pages keeps the score comparable across site sizes: a problem on a tenth of
 *   the pages costs the same on a 10-page site as on a 10,000-page one. A template-wide problem
 *   (say, no viewport tag anywhere) reaches every page and drags the score down whatever the size;
 *   one odd page barely moves a large site.
 * - Sitewide checks (duplicate titles and descriptions) are counted on each page involved, so
 *   their weight grows with the share of the site they touch.
 * - Each check counts once per page: a page with 40 images without alt is not 40 times worse
 *   than a page with one, and one bad page cannot cost more than one page's worth (the floor at 0).
 * - The weights make one critical problem outweigh every minor one together (6 minor checks at
 *   3 points are 18), and a serious one weigh as much as two or three moderate ones.
 * - Rounding down keeps 100 for a site with no issues at all; rounding to nearest would show 100
 *   for a large site with one page missing its title.
 * - More issues never raise the score: every issue adds a non-negative deduction.
 *
 * `pagesScanned` is the number of pages whose facts were extracted. The counters count distinct
 * (page, check) issues by impact.
 */
export function scoreSeo(issues: readonly SeoIssue[], pagesScanned: number): SeoScore {
  const counts: Record<SeoImpact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  const deductionByPage = new Map<string, number>();
  const seen = new Set<string>();

  for (const issue of issues) {
    const key = JSON.stringify([issue.pageUrl, issue.check]);
    if (seen.has(key)) continue;
    seen.add(key);
    counts[issue.impact]++;
    deductionByPage.set(
      issue.pageUrl,
      (deductionByPage.get(issue.pageUrl) ?? 0) + IMPACT_WEIGHTS[issue.impact],
    );
  }

  return { score: siteScore(deductionByPage, pagesScanned), ...counts, issueCount: seen.size };
}

function siteScore(deductionByPage: ReadonlyMap<string, number>, pagesScanned: number): number | null {
  if (pagesScanned <= 0) return null;
  let totalDeduction = 0;
  for (const deduction of deductionByPage.values()) totalDeduction += Math.min(100, deduction);
  // Issues naming more pages than were scanned cannot push the score below 0.
  const remaining = Math.max(0, 100 * pagesScanned - totalDeduction);
  // Integer arithmetic until the one division, so whole results stay exact before the floor.
  return Math.floor(remaining / pagesScanned);
}
