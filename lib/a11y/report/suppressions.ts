/**
 * Suppressions: a reviewer's decision that what a rule flagged is acceptable, at three scopes.
 *
 * - `rule` only: every finding of that rule, site-wide.
 * - `rule` + `selector`: that element (exact selector string) on every page.
 * - `rule` + `selector` + `pageUrl`: that element on that page only.
 *
 * A selector scope hides elements, not whole findings: a finding whose other elements still fail
 * stays, with its count and example nodes reduced, because one accepted element says nothing about
 * the others (and the verdict must not turn compliant while they fail). The finding disappears only
 * when no element is left. Elements beyond the capped examples were never seen, so a selector
 * cannot hide them: such a finding stays with the remaining count (possibly with no example left).
 * `matchedCount` is the number of findings a suppression hides at least one element of.
 */
import { MAX_URL_LENGTH } from '@/lib/crawl/engine/frontier';
import { parseUrl } from '@/lib/net/url';
import type { A11yFinding } from './findings';
import { axeRules } from './rules';

export interface A11ySuppressionScope {
  rule: string;
  selector: string | null;
  pageUrl: string | null;
}

function coversPage(suppression: A11ySuppressionScope, finding: A11yFinding): boolean {
  return (
    suppression.rule === finding.rule &&
    (suppression.pageUrl === null || suppression.pageUrl === finding.pageUrl)
  );
}

export interface SuppressionOutcome<S extends A11ySuppressionScope> {
  /** Findings left to report, with suppressed elements taken out. */
  visible: A11yFinding[];
  /** Findings no element of which is left. */
  hidden: A11yFinding[];
  /** For each suppression given, how many findings it hides an element of (a rule-wide one, whole findings). */
  matchedCount: Map<S, number>;
}

export function applySuppressions<S extends A11ySuppressionScope>(
  findings: readonly A11yFinding[],
  suppressions: readonly S[],
): SuppressionOutcome<S> {
  const matchedCount = new Map<S, number>(suppressions.map((s) => [s, 0]));
  const visible: A11yFinding[] = [];
  const hidden: A11yFinding[] = [];
  for (const finding of findings) {
    const applicable = suppressions.filter((s) => coversPage(s, finding));
    const wholeRule = applicable.filter((s) => s.selector === null);
    if (wholeRule.length > 0) {
      for (const s of wholeRule) matchedCount.set(s, matchedCount.get(s)! + 1);
      hidden.push(finding);
      continue;
    }
    const matching = new Set<S>();
    const nodes = finding.nodes.filter((node) => {
      const by = applicable.filter((s) => s.selector === node.selector);
      for (const s of by) matching.add(s);
      return by.length === 0;
    });
    for (const s of matching) matchedCount.set(s, matchedCount.get(s)! + 1);
    const count = finding.count - (finding.nodes.length - nodes.length);
    if (count <= 0) hidden.push(finding);
    else visible.push(nodes.length === finding.nodes.length ? finding : { ...finding, count, nodes });
  }
  return { visible, hidden, matchedCount };
}

/** Longest rule id accepted; axe's longest is about 40 characters. */
export const MAX_SUPPRESSION_RULE_LENGTH = 100;
/**
 * Longest selector accepted: axe writes short unique selectors, but a node in nested frames or shadow
 * roots chains several; 2,000 leaves room for those and bounds what a row stores.
 */
export const MAX_SUPPRESSION_SELECTOR_LENGTH = 2000;
/** Longest reason accepted: an audit note of a few sentences, bounded like the other free text. */
export const MAX_SUPPRESSION_REASON_LENGTH = 1000;

export interface SuppressionInput {
  rule: string;
  selector: string | null;
  pageUrl: string | null;
  reason: string | null;
}

export type SuppressionValidation =
  | { ok: true; value: SuppressionInput }
  | { ok: false; field: 'rule' | 'selector' | 'pageUrl' | 'reason' | 'body'; problem: string };

type Field = 'selector' | 'pageUrl' | 'reason';

function optionalText(
  body: Record<string, unknown>,
  field: Field,
  max: number,
): { value: string | null } | { problem: string } {
  const raw = body[field];
  if (raw === undefined || raw === null) return { value: null };
  if (typeof raw !== 'string') return { problem: 'must be a string' };
  const value = raw.trim();
  if (value === '') return field === 'reason' ? { value: null } : { problem: 'must not be empty' };
  if (value.length > max) return { problem: `must be at most ${max} characters` };
  return { value };
}

/**
 * Checks a suppression body. `rule` must be a rule of the installed axe-core: a mistyped id would
 * store a suppression that never hides anything. `pageUrl` is stored as the crawler keys pages
 * (absolute http(s), host lowercased, default port and fragment dropped) so it compares equal to
 * the findings' page URLs; it requires `selector` (one occurrence, per the spec).
 */
export function validateSuppression(
  body: unknown,
  isKnownRule: (ruleId: string) => boolean = (id) => axeRules().has(id),
): SuppressionValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, field: 'body', problem: 'must be a JSON object' };
  }
  const fields = body as Record<string, unknown>;
  const rule = typeof fields.rule === 'string' ? fields.rule.trim() : fields.rule;
  if (rule === undefined || rule === null || rule === '')
    return { ok: false, field: 'rule', problem: 'is required' };
  if (typeof rule !== 'string') return { ok: false, field: 'rule', problem: 'must be a string' };
  if (rule.length > MAX_SUPPRESSION_RULE_LENGTH || !isKnownRule(rule)) {
    return { ok: false, field: 'rule', problem: 'is not a known axe-core rule id' };
  }
  const selector = optionalText(fields, 'selector', MAX_SUPPRESSION_SELECTOR_LENGTH);
  if ('problem' in selector) return { ok: false, field: 'selector', problem: selector.problem };
  const pageUrl = optionalText(fields, 'pageUrl', MAX_URL_LENGTH);
  if ('problem' in pageUrl) return { ok: false, field: 'pageUrl', problem: pageUrl.problem };
  let page: string | null = null;
  if (pageUrl.value !== null) {
    if (selector.value === null) return { ok: false, field: 'pageUrl', problem: 'requires selector' };
    const url = parseUrl(pageUrl.value);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return { ok: false, field: 'pageUrl', problem: 'must be an absolute http(s) URL' };
    }
    url.hash = '';
    page = url.href;
  }
  const reason = optionalText(fields, 'reason', MAX_SUPPRESSION_REASON_LENGTH);
  if ('problem' in reason) return { ok: false, field: 'reason', problem: reason.problem };
  return { ok: true, value: { rule, selector: selector.value, pageUrl: page, reason: reason.value } };
}
