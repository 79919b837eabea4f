import type { LinkAttrs } from '@/lib/db/schema';
import { type Document, type Element, walkElements } from '@/lib/html/document';
import { parseUrl } from '@/lib/net/url';
import { anchorsOnId, climbSelector } from '@/lib/seo/selector';
import { attrsOf, labelOf } from './link-labels';
import { normalizeUrl } from './url';

export interface ExtractedLink {
  /**
   * Absolute http(s) URL, fragment dropped; or, for a reference that is not a URL at all
   * (`href="http://"`, `href="//////"`), the value as written: it is reported as invalid, never
   * dropped (see `invalidUrlDetail` in check.ts).
   */
  url: string;
  /** Element the link came from: `a`, `img`, `link`, `script`, `meta` (refresh, social cards), ... */
  tag: string;
  /**
   * Best-effort human label: anchor text, else alt / aria-label / title; for social cards and
   * structured data, where the URL was published (`og:image`, `JSON-LD logo`). Collapsed, at most
   * 200 chars.
   */
  text: string | null;
  /**
   * Positional CSS selector that finds the element again (`$(selector)`), anchored on a unique id
   * when one exists; null when the element sits too deep for a bounded one (see climbSelector).
   */
  selector: string | null;
  /** The element's id, class, rel, title, aria-label (those present), or null. */
  attrs: LinkAttrs | null;
  /**
   * An embedded resource (image, script, stylesheet, share image...): checked, never parsed.
   * False for what a visitor navigates to: `a`, `area`, `iframe`, meta refresh, `og:url` and
   * JSON-LD `url`.
   */
  asset: boolean;
}

export interface ExtractedLinks {
  links: ExtractedLink[];
  /** Target of a `<meta http-equiv="refresh">`, absolute; also present in `links`. */
  metaRefresh?: string;
  /** The URL relative links were resolved against (`<base href>` or the page URL). */
  baseUrl: string;
  /** The page had more than MAX_LINKS_PER_PAGE links: the rest, in document order, were not taken. */
  linksCapped: boolean;
}

/**
 * Links taken from one page, in document order. Real pages stay far below it: a mega-menu holds
 * a few hundred links, a long article or an HTML sitemap a few thousand; beyond it a page is a
 * link farm or an attack, and every link taken costs a frontier row and a check.
 */
export const MAX_LINKS_PER_PAGE = 10_000;
/**
 * Largest JSON-LD block read, in characters. Product pages with reviews publish tens of kilobytes;
 * a bigger block is skipped rather than parsed on the shared event loop.
 */
export const MAX_JSON_LD_CHARS = 256 * 1024;
/** URLs taken from one JSON-LD block: a page's images, logos and author pages are a few dozen. */
export const MAX_JSON_LD_URLS = 100;

const LINK_RELS = new Set([
  'stylesheet',
  'canonical',
  'alternate',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
]);
/**
 * `<meta property|name>` values whose content is a URL a social card publishes: what a share
 * shows (image, video, audio) and where it leads (`og:url`).
 */
const SOCIAL_META = new Set([
  'og:url',
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'og:video',
  'og:video:url',
  'og:video:secure_url',
  'og:audio',
  'og:audio:url',
  'og:audio:secure_url',
  'twitter:image',
  'twitter:image:src',
]);
/** Schemes that are never fetched: skipped before URL parsing (data: URIs can be megabytes). */
const UNFETCHABLE = /^\s*(?:mailto|tel|sms|javascript|data|blob|about|file):/i;
const UNIQUE_TAGS = new Set(['html', 'head', 'body']);

/** An element on the way to a link, linked to its parent's: the path is shared, never copied. */
interface Segment {
  tag: string;
  /** Position among the parent's children of the same tag, from 1. */
  nth: number;
  id: string | undefined;
  parent: Segment | null;
}

/** A reference found on an element, before resolution. */
interface Source {
  raw: string;
  /** Overrides the element's own label (social cards, structured data). */
  label?: string;
  asset: boolean;
}

interface Candidate {
  element: Element;
  segment: Segment;
  sources: Source[];
  refresh: boolean;
}

interface WalkState {
  baseHref: string | undefined;
  refresh: Candidate | undefined;
}

/**
 * Every fetchable reference on a page, from a document the caller parsed once (the SEO extractor
 * reads the same one). One iterative walk over the tree collects link sources and each element's
 * position, linked to its parent's; selectors are built afterwards for link elements only, at
 * most MAX_SELECTOR_STEPS steps each. Time and memory are linear in the document, whatever its
 * depth, and at most MAX_LINKS_PER_PAGE links are taken.
 */
export function extractLinks(document: Document, pageUrl: string): ExtractedLinks {
  const candidates: Candidate[] = [];
  const idCounts = new Map<string, number>();
  const state: WalkState = { baseHref: undefined, refresh: undefined };

  // The context siblings share: their parent's segment and how many of each tag came before.
  type Siblings = { parent: Segment | null; seen: Map<string, number> | null };
  walkElements<Siblings>(document.children, { parent: null, seen: null }, (node, context) => {
    const tag = node.name;
    context.seen ??= new Map();
    const nth = (context.seen.get(tag) ?? 0) + 1;
    context.seen.set(tag, nth);
    const id = node.attribs.id;
    if (id) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    const segment: Segment = { tag, nth, id, parent: context.parent };

    const sources = linkSources(node, state);
    if (sources.length > 0) {
      const candidate = { element: node, segment, sources, refresh: false };
      candidates.push(candidate);
      if (tag === 'meta' && state.refresh === undefined && isRefresh(node)) {
        candidate.refresh = true;
        state.refresh = candidate;
      }
    }
    return { parent: segment, seen: null };
  });

  const baseUrl = resolveBase(state.baseHref, pageUrl);
  const isUniqueId = (id: string) => idCounts.get(id) === 1;
  const links: ExtractedLink[] = [];
  let metaRefresh: string | undefined;
  let linksCapped = false;
  for (const candidate of candidates) {
    let selector: string | null | undefined;
    let text: string | null | undefined;
    let attrs: LinkAttrs | null | undefined;
    for (const source of candidate.sources) {
      if (UNFETCHABLE.test(source.raw)) continue;
      const url = resolveLink(source.raw, baseUrl);
      if (url === null) continue;
      if (links.length === MAX_LINKS_PER_PAGE) {
        linksCapped = true;
        break;
      }
      // Computed once per element, and only for elements that yield a link.
      selector ??= selectorOf(candidate.segment, isUniqueId);
      text ??= labelOf(candidate.element);
      attrs ??= attrsOf(candidate.element);
      const tag = candidate.element.name;
      links.push({ url, tag, text: source.label ?? text, selector, attrs, asset: source.asset });
      if (candidate.refresh) metaRefresh ??= url;
    }
    if (linksCapped) break;
  }
  return metaRefresh === undefined
    ? { links, baseUrl, linksCapped }
    : { links, metaRefresh, baseUrl, linksCapped };
}

/**
 * The link's URL: absolute http(s), or the raw value when it is not a URL at all (kept, to be
 * reported invalid). Null for what is deliberately not checked: other schemes (`ftp:`, `irc:`).
 */
function resolveLink(raw: string, baseUrl: string): string | null {
  const url = normalizeUrl(raw, baseUrl);
  if (url !== null) return url;
  return parseUrl(raw, baseUrl) === null ? raw : null;
}

function isRefresh(el: Element): boolean {
  return el.attribs['http-equiv']?.toLowerCase() === 'refresh';
}

/** References an element holds, unresolved; also records `<base href>`. */
function linkSources(el: Element, state: WalkState): Source[] {
  const a = el.attribs;
  switch (el.name) {
    case 'a':
    case 'area':
    case 'iframe':
      return usable(el.name === 'iframe' ? a.src : a.href, false);
    case 'link':
      return a.href !== undefined && relMatches(a.rel) ? usable(a.href, true) : [];
    case 'img':
    case 'source': {
      const out = usable(a.src, true);
      if (a.srcset) for (const raw of parseSrcset(a.srcset)) out.push({ raw, asset: true });
      return out;
    }
    case 'script':
      return a.src !== undefined ? usable(a.src, true) : jsonLdSources(el);
    case 'audio':
    case 'track':
      return usable(a.src, true);
    case 'video':
      return [...usable(a.src, true), ...usable(a.poster, true)];
    case 'meta':
      return metaSources(el);
    case 'base':
      // Only the first <base href> counts, as in browsers.
      if (state.baseHref === undefined && a.href !== undefined) state.baseHref = a.href;
      return [];
    default:
      return [];
  }
}

/** An href worth resolving: empty values and same-page `#fragment` links point at the page itself. */
function usable(value: string | undefined, asset: boolean): Source[] {
  if (value === undefined) return [];
  const raw = value.trim();
  return raw === '' || raw.startsWith('#') ? [] : [{ raw, asset }];
}

/** A meta refresh target (navigated to), or the URL a social card publishes. */
function metaSources(el: Element): Source[] {
  const a = el.attribs;
  if (isRefresh(el)) {
    const target = a.content ? parseMetaRefresh(a.content) : null;
    return target === null ? [] : [{ raw: target, asset: false }];
  }
  // Open Graph specifies `property`; many sites write `name`, which the card readers accept too.
  const label = (a.property ?? a.name)?.trim().toLowerCase();
  if (label === undefined || !SOCIAL_META.has(label)) return [];
  return usable(a.content, label !== 'og:url').map((source) => ({ ...source, label }));
}

/** Keys of schema.org JSON-LD whose string values are URLs to check. */
const JSON_LD_KEYS = new Set(['url', 'image', 'logo']);

/**
 * The `url`, `image` and `logo` values of a `<script type="application/ld+json">` block, at any
 * depth (`@graph`, `publisher.logo`, arrays, `ImageObject`s). A `url` inside an `image` or `logo`
 * object is that image; any other `url` names a page. The walk is iterative and takes at most
 * MAX_JSON_LD_URLS values from a block of at most MAX_JSON_LD_CHARS: a stranger wrote it.
 */
function jsonLdSources(el: Element): Source[] {
  if (el.attribs.type?.trim().toLowerCase() !== 'application/ld+json') return [];
  const text = el.children.length === 1 && el.children[0]?.type === 'text' ? el.children[0].data : '';
  if (text.length > MAX_JSON_LD_CHARS) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const sources: Source[] = [];
  // Each entry: a value and the nearest URL-bearing key above it (null outside any).
  const pending: { value: unknown; key: string | null }[] = [{ value: data, key: null }];
  while (pending.length > 0 && sources.length < MAX_JSON_LD_URLS) {
    const { value, key } = pending.pop() as (typeof pending)[number];
    if (typeof value === 'string') {
      const raw = value.trim();
      if (key !== null && raw !== '') sources.push({ raw, label: `JSON-LD ${key}`, asset: key !== 'url' });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, inner] = entries[i] as [string, unknown];
        if (!JSON_LD_KEYS.has(name)) {
          // Nested things (an author, a publisher) are walked for their own URLs.
          if (typeof inner === 'object') pending.push({ value: inner, key: null });
        } else {
          // `image: {url}` is the image: the outer key names what the URL is.
          pending.push({ value: inner, key: key === 'image' || key === 'logo' ? key : name });
        }
      }
    }
  }
  return sources;
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

function selectorOf(segment: Segment, isUniqueId: (id: string) => boolean): string | null {
  return climbSelector(
    segment,
    (seg) => seg.parent,
    (seg) => {
      if (anchorsOnId(seg.id, isUniqueId)) return { step: `#${seg.id}`, anchor: true };
      const step = UNIQUE_TAGS.has(seg.tag) && seg.nth === 1 ? seg.tag : `${seg.tag}:nth-of-type(${seg.nth})`;
      return { step, anchor: false };
    },
  );
}
