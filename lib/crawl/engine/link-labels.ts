/**
 * What a link is called and carries, for the broken-link report: an element's label (an anchor's
 * text or the alt of an image inside it, else its aria-label or title) and its identifying
 * attributes, each read within fixed bounds whatever the page holds.
 */
import type { LinkAttrs } from '@/lib/db/schema';
import type { AnyNode, Element } from '@/lib/html/document';

const MAX_TEXT = 200;
/** Text beyond this is never looked at: the label is capped far below it anyway. */
const MAX_TEXT_SCAN = 1000;
const ATTR_NAMES = ['id', 'class', 'rel', 'title', 'aria-label'] as const;

function collapse(text: string): string | null {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return null;
  return collapsed.length > MAX_TEXT ? collapsed.slice(0, MAX_TEXT) : collapsed;
}

/** Descendants looked at for an anchor's label: its text and the alt of an image inside it. */
const MAX_LABEL_SCAN_NODES = 1000;

/**
 * An anchor's text (read only as far as MAX_TEXT_SCAN characters) and the first image alt inside
 * it, from at most MAX_LABEL_SCAN_NODES descendants in document order, without recursion: SVG
 * anchors nest without limit, and each one's label must not cost its whole subtree.
 */
function anchorContent(el: Element): { text: string; imageAlt: string | undefined } {
  let text = '';
  let imageAlt: string | undefined;
  let visited = 0;
  const frames: { nodes: AnyNode[]; next: number }[] = [{ nodes: el.children, next: 0 }];
  while (frames.length > 0 && visited++ < MAX_LABEL_SCAN_NODES) {
    const frame = frames[frames.length - 1] as (typeof frames)[number];
    const node = frame.nodes[frame.next++];
    if (node === undefined) {
      frames.pop();
      continue;
    }
    if (node.type === 'text') {
      if (text.length < MAX_TEXT_SCAN) text += node.data;
    } else if (node.type === 'tag') {
      if (imageAlt === undefined && node.name === 'img' && node.attribs.alt?.trim())
        imageAlt = node.attribs.alt;
      if (node.children.length > 0) frames.push({ nodes: node.children, next: 0 });
    }
    if (text.length >= MAX_TEXT_SCAN && imageAlt !== undefined) break;
  }
  return { text, imageAlt };
}

export function labelOf(el: Element): string | null {
  const a = el.attribs;
  switch (el.name) {
    case 'a': {
      const content = anchorContent(el);
      return collapse(content.text) ?? firstLabel(content.imageAlt, a['aria-label'], a.title);
    }
    case 'area':
    case 'img':
      return firstLabel(a.alt, a['aria-label'], a.title);
    default:
      return firstLabel(a['aria-label'], a.title);
  }
}

/** The first value that is not blank once collapsed. */
function firstLabel(...values: (string | undefined)[]): string | null {
  for (const value of values) {
    const label = value === undefined ? null : collapse(value);
    if (label) return label;
  }
  return null;
}

export function attrsOf(el: Element): LinkAttrs | null {
  let found: LinkAttrs | null = null;
  for (const name of ATTR_NAMES) {
    const value = el.attribs[name];
    if (value !== undefined) {
      found ??= {};
      found[name] = value;
    }
  }
  return found;
}

/**
 * The spec's `link_attrs`: the attributes as a JSON-encoded object in ATTR_NAMES order (jsonb keeps
 * an object's keys in an order of its own); null when the element had none.
 */
export function encodeLinkAttrs(attrs: LinkAttrs | null): string | null {
  if (attrs === null) return null;
  const ordered: LinkAttrs = {};
  for (const name of ATTR_NAMES) if (attrs[name] !== undefined) ordered[name] = attrs[name];
  return JSON.stringify(ordered);
}
