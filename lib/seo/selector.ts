import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';

const SIMPLE_ID = /^[A-Za-z][\w-]*$/;

/**
 * A CSS selector that finds `element` again by position, e.g.
 * `#content > div:nth-of-type(2) > img`. It starts from the nearest ancestor with a unique,
 * simply-spelled id (ids survive template changes better than long position chains), otherwise
 * from `html`; `:nth-of-type` appears only where a parent has several children of the same tag.
 *
 * `isUniqueId` says whether an id occurs exactly once in the document. By default the document is
 * queried for each candidate id; a caller that has already walked the document passes its counts.
 */
export function positionalSelector(
  $: CheerioAPI,
  element: Element,
  isUniqueId: (id: string) => boolean = (id) => $(`[id="${id}"]`).length === 1,
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

function isElement(node: unknown): node is Element {
  // domhandler marks elements (including <script> and <style>) with an attribs object.
  return typeof node === 'object' && node !== null && 'attribs' in node && 'name' in node;
}
