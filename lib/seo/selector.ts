import type { AnyNode, Element } from '@/lib/html/document';
import { isElement, walkElements } from '@/lib/html/document';

const SIMPLE_ID = /^[A-Za-z][\w-]*$/;

/**
 * Steps a positional selector climbs from its element before giving up. Templates nest a link
 * 10 to 25 elements below `<html>` (frameworks' wrapper divs included), and a unique id usually
 * sits closer still; a path longer than this is what hostile pages are built of, and its selector
 * would cost as much as the page per link.
 */
export const MAX_SELECTOR_STEPS = 32;
/** Characters of one selector: 32 steps of ordinary tags with positions fit well within it. */
export const MAX_SELECTOR_LENGTH = 512;

/**
 * Joins the steps from `start` up to its first anchor (a step that finds one element on its own:
 * a unique id, or the root element) into a selector such as `#news > div:nth-of-type(2) > a`.
 *
 * Null when no anchor is reached within MAX_SELECTOR_STEPS or the selector would pass
 * MAX_SELECTOR_LENGTH: a path cut short would find other elements, or none, and no selector is
 * better than one that points at the wrong element. The cost is bounded by those constants, never
 * by the depth of the page.
 */
export function climbSelector<N>(
  start: N,
  parentOf: (node: N) => N | null,
  stepOf: (node: N) => { step: string; anchor: boolean },
): string | null {
  const steps: string[] = [];
  let length = -3;
  for (let node: N | null = start; node !== null; node = parentOf(node)) {
    if (steps.length === MAX_SELECTOR_STEPS) return null;
    const { step, anchor } = stepOf(node);
    length += step.length + 3;
    if (length > MAX_SELECTOR_LENGTH) return null;
    steps.push(step);
    if (anchor) break;
  }
  return steps.reverse().join(' > ');
}

/** An id that a `#id` step can name: unique in the document and spelled without escapes. */
export function anchorsOnId(id: string | undefined, isUniqueId: (id: string) => boolean): id is string {
  return id !== undefined && id !== '' && SIMPLE_ID.test(id) && isUniqueId(id);
}

/**
 * A CSS selector that finds `element` again by position, e.g.
 * `#content > div:nth-of-type(2) > img`. It starts from the nearest ancestor with a unique,
 * simply-spelled id (ids survive template changes better than long position chains), otherwise
 * from `html`; `:nth-of-type` appears only where a parent has several children of the same tag.
 * Null when that path is beyond the bounds of `climbSelector`.
 *
 * `isUniqueId` says whether an id occurs exactly once in the document. By default the element's
 * document is walked once to count ids; a caller that has already walked it passes its counts.
 */
export function positionalSelector(
  element: Element,
  isUniqueId: (id: string) => boolean = uniqueIdsIn(rootOf(element)),
): string | null {
  return climbSelector(element, parentElement, (node) =>
    anchorsOnId(node.attribs.id, isUniqueId)
      ? { step: `#${node.attribs.id}`, anchor: true }
      : { step: stepFor(node), anchor: false },
  );
}

function stepFor(node: Element): string {
  const parent = node.parent;
  if (!parent) return node.name;
  let sameTag = 0;
  let position = 0;
  for (const child of parent.children) {
    if (!isElement(child) || child.name !== node.name) continue;
    sameTag++;
    if (child === node) position = sameTag;
  }
  return sameTag < 2 ? node.name : `${node.name}:nth-of-type(${position})`;
}

function parentElement(node: Element): Element | null {
  const parent = node.parent;
  return parent && isElement(parent) ? parent : null;
}

function rootOf(node: AnyNode): AnyNode {
  let root = node;
  while (root.parent) root = root.parent;
  return root;
}

function uniqueIdsIn(root: AnyNode): (id: string) => boolean {
  const counts = new Map<string, number>();
  const children = 'children' in root ? root.children : [root];
  walkElements(children, null, (element) => {
    const id = element.attribs.id;
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    return null;
  });
  return (id) => counts.get(id) === 1;
}
