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
  const byPage = new Map<string, SeoIssue[]>();
  for (const issue of issues) {
    const page = byPage.get(issue.pageUrl);
    if (page) page.push(issue);
    else byPage.set(issue.pageUrl, [issue]);
  }
  const tally = new SeoTally();
  for (const pageIssues of byPage.values()) tally.addPage(pageIssues);
  return tally.score(pagesScanned);
}

/**
 * scoreSeo one page at a time, for runs whose issues are streamed page by page and never held
 * together. Each page is added once, with all its issues.
 */
export class SeoTally {
  private readonly counts: Record<SeoImpact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  private issueCount = 0;
  private totalDeduction = 0;

  addPage(issues: readonly Pick<SeoIssue, 'check' | 'impact'>[]): void {
    const checks = new Set<string>();
    let deduction = 0;
    for (const issue of issues) {
      // Each check counts once per page.
      if (checks.has(issue.check)) continue;
      checks.add(issue.check);
      this.counts[issue.impact]++;
      this.issueCount++;
      deduction += IMPACT_WEIGHTS[issue.impact];
    }
    // One bad page cannot cost more than one page's worth.
    this.totalDeduction += Math.min(100, deduction);
  }

  score(pagesScanned: number): SeoScore {
    return {
      score: siteScore(this.totalDeduction, pagesScanned),
      ...this.counts,
      issueCount: this.issueCount,
    };
  }
}

function siteScore(totalDeduction: number, pagesScanned: number): number | null {
  if (pagesScanned <= 0) return null;
  // Issues naming more pages than were scanned cannot push the score below 0.
  const remaining = Math.max(0, 100 * pagesScanned - totalDeduction);
  // Integer arithmetic until the one division, so whole results stay exact before the floor.
  return Math.floor(remaining / pagesScanned);
}
