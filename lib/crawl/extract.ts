import type { AnyNode, Document, Element } from '@/lib/html/document';
import { normalizeUrl } from './url';

export interface ExtractedLink {
  /** Absolute http(s) URL, fragment dropped. */
  url: string;
  /** Element the link came from: `a`, `img`, `link`, `script`, `meta` (refresh), ... */
  tag: string;
  /** Best-effort human label: anchor text, else alt / aria-label / title; collapsed, at most 200 chars. */
  text: string | null;
  /** Positional CSS selector that finds the element again (`$(selector)`), anchored on a unique id when one exists. */
  selector: string;
  /** JSON of the element's id, class, rel, title, aria-label (those present), or null. */
  attrs: string | null;
}

export interface ExtractedLinks {
  links: ExtractedLink[];
  /** Target of a `<meta http-equiv="refresh">`, absolute; also present in `links`. */
  metaRefresh?: string;
  /** The URL relative links were resolved against (`<base href>` or the page URL). */
  baseUrl: string;
}

const MAX_TEXT = 200;
/** Text beyond this is never looked at: the label is capped far below it anyway. */
const MAX_TEXT_SCAN = 1000;
const ATTR_NAMES = ['id', 'class', 'rel', 'title', 'aria-label'] as const;
const LINK_RELS = new Set([
  'stylesheet',
  'canonical',
  'alternate',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
]);
/** Schemes that are never fetched: skipped before URL parsing (data: URIs can be megabytes). */
const UNFETCHABLE = /^\s*(?:mailto|tel|sms|javascript|data|blob|about|file):/i;
const SIMPLE_ID = /^[A-Za-z][A-Za-z0-9_-]*$/;
const UNIQUE_TAGS = new Set(['html', 'head', 'body']);

interface Segment {
  tag: string;
  nth: number;
  id: string | undefined;
}

interface Candidate {
  element: Element;
  /** Path from the document root to the element, inclusive. */
  path: Segment[];
  raws: string[];
}

function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/**
 * Every fetchable reference on a page, from a document the caller parsed once (the SEO extractor
 * reads the same one). One walk over the tree collects link sources and the positional data for
 * their selectors, so the cost is linear in the document size.
 */
export function extractLinks(document: Document, pageUrl: string): ExtractedLinks {
  const candidates: Candidate[] = [];
  const idCounts = new Map<string, number>();
  const state = { baseHref: undefined as string | undefined, refresh: undefined as Candidate | undefined };

  const stack: Segment[] = [];
  const visit = (children: AnyNode[]) => {
    const seenOfType = new Map<string, number>();
    for (const node of children) {
      if (!isElement(node)) continue;
      const tag = node.name;
      const nth = (seenOfType.get(tag) ?? 0) + 1;
      seenOfType.set(tag, nth);
      const id = node.attribs.id;
      if (id) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
      stack.push({ tag, nth, id });

      const raws = linkSources(node, state);
      if (raws.length > 0) {
        const candidate = { element: node, path: stack.slice(), raws };
        candidates.push(candidate);
        if (tag === 'meta') state.refresh ??= candidate;
      }
      if (node.children.length > 0) visit(node.children);
      stack.pop();
    }
  };
  visit(document.children);

  const baseUrl = resolveBase(state.baseHref, pageUrl);
  const links: ExtractedLink[] = [];
  let metaRefresh: string | undefined;
  for (const candidate of candidates) {
    let selector: string | undefined;
    let text: string | null | undefined;
    let attrs: string | null | undefined;
    for (const raw of candidate.raws) {
      if (UNFETCHABLE.test(raw)) continue;
      const url = normalizeUrl(raw, baseUrl);
      if (url === null) continue;
      // Computed once per element, and only for elements that yield a link.
      selector ??= buildSelector(candidate.path, idCounts);
      text ??= labelOf(candidate.element);
      attrs ??= attrsOf(candidate.element);
      links.push({ url, tag: candidate.element.name, text, selector, attrs });
      if (candidate === state.refresh) metaRefresh ??= url;
    }
  }
  return metaRefresh === undefined ? { links, baseUrl } : { links, metaRefresh, baseUrl };
}

/** Raw (unresolved) URLs an element references; also records `<base href>` and notes meta refresh. */
function linkSources(el: Element, state: { baseHref: string | undefined }): string[] {
  const a = el.attribs;
  switch (el.name) {
    case 'a':
    case 'area':
      return usable(a.href);
    case 'link':
      return a.href !== undefined && relMatches(a.rel) ? usable(a.href) : [];
    case 'img':
    case 'source': {
      const out = usable(a.src);
      if (a.srcset) out.push(...parseSrcset(a.srcset));
      return out;
    }
    case 'script':
    case 'iframe':
    case 'audio':
    case 'track':
      return usable(a.src);
    case 'video': {
      const out = usable(a.src);
      out.push(...usable(a.poster));
      return out;
    }
    case 'meta': {
      if (a['http-equiv']?.toLowerCase() !== 'refresh' || !a.content) return [];
      const target = parseMetaRefresh(a.content);
      return target === null ? [] : [target];
    }
    case 'base':
      // Only the first <base href> counts, as in browsers.
      if (state.baseHref === undefined && a.href !== undefined) state.baseHref = a.href;
      return [];
    default:
      return [];
  }
}

/** An href worth resolving: empty values and same-page `#fragment` links point at the page itself. */
function usable(value: string | undefined): string[] {
  if (value === undefined) return [];
  const trimmed = value.trim();
  return trimmed === '' || trimmed.startsWith('#') ? [] : [trimmed];
}

function relMatches(rel: string | undefined): boolean {
  if (!rel) return false;
  // "shortcut icon" is two tokens; "icon" alone qualifies it.
  return rel
    .toLowerCase()
    .split(/\s+/)
    .some((token) => LINK_RELS.has(token));
}

function resolveBase(baseHref: string | undefined, pageUrl: string): string {
  if (baseHref === undefined) return pageUrl;
  return normalizeUrl(baseHref.trim(), pageUrl) ?? pageUrl;
}

/**
 * URLs of a `srcset` attribute, following the HTML parsing algorithm: a candidate's URL runs to the
 * next whitespace (so it may contain commas), a trailing comma ends it, and descriptors run to the
 * next comma outside parentheses.
 */
export function parseSrcset(srcset: string): string[] {
  const urls: string[] = [];
  const n = srcset.length;
  let i = 0;
  const isSpace = (c: string | undefined) =>
    c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(srcset[i])) i++;
    let url = srcset.slice(start, i);
    let endsCandidate = false;
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      endsCandidate = true;
    }
    if (url !== '') urls.push(url);
    if (endsCandidate) continue;
    let depth = 0;
    while (i < n) {
      const c = srcset[i];
      if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      else if (c === ',' && depth === 0) break;
      i++;
    }
    i++;
  }
  return urls;
}

/** The URL in a refresh `content` such as `0; url=/next`, `5;URL='x'` or `0, /next`; null when none. */
export function parseMetaRefresh(content: string): string | null {
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let target = match?.[1]?.trim() ?? '';
  const quote = target[0];
  if (quote === '"' || quote === "'") {
    const end = target.indexOf(quote, 1);
    target = end === -1 ? target.slice(1) : target.slice(1, end);
  }
  target = target.trim();
  return target === '' ? null : target;
}

function buildSelector(path: Segment[], idCounts: Map<string, number>): string {
  let start = 0;
  let prefix = '';
  for (let i = path.length - 1; i >= 0; i--) {
    const id = path[i]?.id;
    if (id && SIMPLE_ID.test(id) && idCounts.get(id) === 1) {
      start = i + 1;
      prefix = `#${id}`;
      break;
    }
  }
  const parts: string[] = prefix ? [prefix] : [];
  for (let i = start; i < path.length; i++) {
    const seg = path[i] as Segment;
    parts.push(UNIQUE_TAGS.has(seg.tag) && seg.nth === 1 ? seg.tag : `${seg.tag}:nth-of-type(${seg.nth})`);
  }
  return parts.join(' > ');
}

function collapse(text: string): string | null {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return null;
  return collapsed.length > MAX_TEXT ? collapsed.slice(0, MAX_TEXT) : collapsed;
}

/** The element's text, read only as far as MAX_TEXT_SCAN (the label is capped far below it). */
function textOf(el: Element): string {
  const out = { text: '' };
  appendText(el.children, out);
  return out.text;
}

function appendText(nodes: AnyNode[], out: { text: string }): void {
  for (const node of nodes) {
    if (out.text.length >= MAX_TEXT_SCAN) return;
    if (node.type === 'text') out.text += node.data;
    else if (node.type === 'tag') appendText(node.children, out);
  }
}

function firstImageAlt(el: Element): string | undefined {
  for (const node of el.children) {
    if (node.type !== 'tag') continue;
    if (node.name === 'img' && node.attribs.alt?.trim()) return node.attribs.alt;
    const nested = firstImageAlt(node);
    if (nested) return nested;
  }
  return undefined;
}

function labelOf(el: Element): string | null {
  const a = el.attribs;
  switch (el.name) {
    case 'a':
      return collapse(textOf(el)) ?? firstLabel(firstImageAlt(el), a['aria-label'], a.title);
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

function attrsOf(el: Element): string | null {
  let found: Record<string, string> | null = null;
  for (const name of ATTR_NAMES) {
    const value = el.attribs[name];
    if (value !== undefined) {
      found ??= {};
      found[name] = value;
    }
  }
  return found === null ? null : JSON.stringify(found);
}
