import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';

const SIMPLE_ID = /^[A-Za-z][\w-]*$/;

/**
 * A CSS selector that finds `element` again by position, e.g.
 * `#content > div:nth-of-type(2) > img`. It starts from the nearest ancestor with a unique,
 * simply-spelled id (ids survive template changes better than long position chains), otherwise
 * from `html`; `:nth-of-type` appears only where a parent has several children of the same tag.
 */
export function positionalSelector($: CheerioAPI, element: Element): string {
  const steps: string[] = [];
  let node: Element | null = element;
  while (node) {
    const id = node.attribs.id;
    if (id && SIMPLE_ID.test(id) && $(`[id="${id}"]`).length === 1) {
      steps.unshift(`#${id}`);
      break;
    }
    steps.unshift(stepFor(node));
    node = parentElement(node);
  }
  return steps.join(' > ');
}

function stepFor(node: Element): string {
  const parent = node.parent;
  if (!parent) return node.name;
  const sameTag = parent.children.filter(
    (child): child is Element => isElement(child) && child.name === node.name,
  );
  if (sameTag.length < 2) return node.name;
  return `${node.name}:nth-of-type(${sameTag.indexOf(node) + 1})`;
}

function parentElement(node: Element): Element | null {
  const parent = node.parent;
  return parent && isElement(parent) ? parent : null;
}

function isElement(node: unknown): node is Element {
  // domhandler marks elements (including <script> and <style>) with an attribs object.
  return typeof node === 'object' && node !== null && 'attribs' in node && 'name' in node;
}
