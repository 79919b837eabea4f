/**
 * The report's input: one finding per (page, rule, type), as the render pass stores it, decoupled
 * from the database row (`lib/db/schema/a11y.ts` keeps `nodes` as a JSON string and snake_case
 * names; the report service maps a row to this).
 */
import type { Impact } from './rules';

export type FindingType = 'violation' | 'incomplete';

/** An example element axe matched; the render pass keeps a capped number of them per finding. */
export interface A11yNode {
  selector: string;
  snippet?: string;
  summary?: string;
}

export interface A11yFinding {
  pageUrl: string;
  rule: string;
  /** `violation` is confirmed; `incomplete` needs human review and never counts as a failure. */
  type: FindingType;
  impact: Impact | null;
  /** Elements matched on the page; may exceed `nodes.length` when the examples were capped. */
  count: number;
  nodes: readonly A11yNode[];
}

export function isViolation(finding: A11yFinding): boolean {
  return finding.type === 'violation';
}
