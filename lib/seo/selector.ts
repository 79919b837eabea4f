import type { AnyNode, Element } from '@/lib/html/document';

const SIMPLE_ID = /^[A-Za-z][\w-]*$/;

/**
 * A CSS selector that finds `element` again by position, e.g.
 * `#content > div:nth-of-type(2) > img`. It starts from the nearest ancestor with a unique,
 * simply-spelled id (ids survive template changes better than long position chains), otherwise
 * from `html`; `:nth-of-type` appears only where a parent has several children of the same tag.
 *
 * `isUniqueId` says whether an id occurs exactly once in the document. By default the element's
 * document is walked once to count ids; a caller that has already walked it passes its counts.
 */
export function positionalSelector(
  element: Element,
  isUniqueId: (id: string) => boolean = uniqueIdsIn(rootOf(element)),
): string {
  const steps: string[] = [];
  let node: Element | null = element;
  while (node) {
    const id = node.attribs.id;
    if (id && SIMPLE_ID.test(id) && isUniqueId(id)) {
      steps.push(`#${id}`);
      break;
    }
    steps.push(stepFor(node));
    node = parentElement(node);
  }
  return steps.reverse().join(' > ');
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
  const count = (node: AnyNode) => {
    if (isElement(node) && node.attribs.id !== undefined)
      counts.set(node.attribs.id, (counts.get(node.attribs.id) ?? 0) + 1);
    if ('children' in node) for (const child of node.children) count(child);
  };
  count(root);
  return (id) => counts.get(id) === 1;
}

function isElement(node: unknown): node is Element {
  // domhandler marks elements (including <script> and <style>) with an attribs object.
  return typeof node === 'object' && node !== null && 'attribs' in node && 'name' in node;
}
