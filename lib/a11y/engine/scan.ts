import type { A11yNode, FindingType } from '../report/findings';
import type { Impact } from '../report/rules';

/**
 * What the render pass learns about one page, and the report's storage is written from: the
 * contract between the browser side (`render.ts`) and the run that stores results.
 */
export type PageScan = ScannedPage | UnscannedPage;

export interface ScannedPage {
  /** The URL asked for (a page of the crawl's persisted set). */
  url: string;
  status: 'scanned';
  /** One per (rule, type), as axe reports them across every frame of the page. */
  findings: PageScanFinding[];
  /** Rule ids that ran and passed on the page (axe's `passes`); all the score needs of passes. */
  passes: string[];
  /** Rule ids that ran and found nothing to check (axe's `inapplicable`): they never count. */
  inapplicable: string[];
}

export interface UnscannedPage {
  url: string;
  status: 'not-scanned';
  /** In plain words: "did not finish loading within 30 s", "redirected off the site to ...", ... */
  reason: string;
}

export interface PageScanFinding {
  rule: string;
  type: FindingType;
  impact: Impact | null;
  help: string;
  helpUrl: string;
  /** Elements matched, across frames; `nodes` keeps a capped number of examples. */
  count: number;
  nodes: A11yNode[];
}
