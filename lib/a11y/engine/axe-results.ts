/**
 * axe-core's results for one page as the render pass keeps them: one finding per (rule, type),
 * passes and inapplicable rules as ids only. Nothing is added or dropped here: every rule axe lists
 * under `violations` or `incomplete` becomes exactly one finding, with `count` the number of
 * elements axe matched across every frame; only the example nodes are capped.
 */
import type { AxeResults, NodeResult, Result, UnlabelledFrameSelector } from 'axe-core';
import type { A11yNode, FindingType } from '../report/findings';
import type { Impact } from '../report/rules';
import type { PageScanFinding, ScannedPage } from './scan';

/**
 * Example elements kept per finding. The report shows a handful per rule and a page with 500
 * failing links would otherwise store 500 snippets; `count` still says how many there were.
 */
export const MAX_NODES_PER_FINDING = 10;

/**
 * Characters of an element's HTML snippet kept (axe's own `html` is the element's outer HTML up to
 * its first child, which for an inline `<svg>` or a data-URL image can run to kilobytes); enough to
 * recognise the element.
 */
export const MAX_SNIPPET_LENGTH = 300;

/** Joins the selectors of the frames an element sits in: `iframe#checkout >>> button.pay`. */
export const FRAME_SEPARATOR = ' >>> ';
/** Joins the selectors of the shadow roots an element sits in: `my-widget >> button`. */
export const SHADOW_SEPARATOR = ' >> ';

/**
 * axe's target as one string. The outer array crosses frames (outermost first), an inner array
 * crosses shadow roots (host first); a plain element has a one-item target.
 */
export function selectorFromTarget(target: UnlabelledFrameSelector): string {
  return target
    .map((part) => (Array.isArray(part) ? part.join(SHADOW_SEPARATOR) : part))
    .join(FRAME_SEPARATOR);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function exampleNode(node: NodeResult): A11yNode {
  const example: A11yNode = { selector: selectorFromTarget(node.target) };
  if (node.html) example.snippet = truncate(node.html, MAX_SNIPPET_LENGTH);
  if (node.failureSummary) example.summary = node.failureSummary;
  return example;
}

function findingFrom(result: Result, type: FindingType): PageScanFinding {
  return {
    rule: result.id,
    type,
    impact: (result.impact ?? null) as Impact | null,
    help: result.help,
    helpUrl: result.helpUrl,
    count: result.nodes.length,
    nodes: result.nodes.slice(0, MAX_NODES_PER_FINDING).map(exampleNode),
  };
}

export function scannedPageFrom(url: string, results: AxeResults): ScannedPage {
  return {
    url,
    status: 'scanned',
    findings: [
      ...results.violations.map((r) => findingFrom(r, 'violation')),
      ...results.incomplete.map((r) => findingFrom(r, 'incomplete')),
    ],
    passes: results.passes.map((r) => r.id),
    inapplicable: results.inapplicable.map((r) => r.id),
  };
}
