/**
 * The report's input: one finding per (page, rule, type), as the render pass stores it, decoupled
 * from the database row (`lib/db/schema/a11y.ts` keeps snake_case names; the report service maps a
 * row to this).
 */
import type { a11yFindings } from '@/lib/db/schema/a11y';
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

export type A11yFindingRow = Pick<
  typeof a11yFindings.$inferSelect,
  'page_url' | 'rule' | 'type' | 'impact' | 'count' | 'nodes'
>;

/**
 * A finding resource's `nodes` (the spec's JSON-encoded string, as the dashboard receives it) as
 * example nodes. Entries without a string selector are dropped rather than failing the page: they
 * cannot be shown or suppressed, and the finding's count still holds.
 */
export function parseNodes(json: string): A11yNode[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry): A11yNode[] => {
    if (typeof entry !== 'object' || entry === null || typeof entry.selector !== 'string') return [];
    const node: A11yNode = { selector: entry.selector };
    if (typeof entry.snippet === 'string') node.snippet = entry.snippet;
    if (typeof entry.summary === 'string') node.summary = entry.summary;
    return [node];
  });
}

export function findingFromRow(row: A11yFindingRow): A11yFinding {
  return {
    pageUrl: row.page_url,
    rule: row.rule,
    type: row.type,
    impact: row.impact,
    count: row.count,
    nodes: row.nodes,
  };
}
