import { type AnyNode, type Document, type Element, type Text, walkElements } from '@/lib/html/document';
import { MAX_IMAGE_SAMPLES, MAX_STORED_SRC, MAX_STORED_TEXT, type PageSeoFacts } from './facts';
import { positionalSelector } from './selector';

export type { PageSeoFacts } from './facts';

export interface ExtractOptions {
  /** The page's `X-Robots-Tag` response header, if any (several headers joined with ", "). */
  xRobotsTag?: string | null;
}

/**
 * Extracts the on-page SEO facts from a document the crawler has already parsed, so SEO costs no
 * extra fetch or parse. `pageUrl` is the URL the document was served from (after redirects); it
 * anchors relative URLs unless the document declares a `<base href>`.
 */
export function extractSeoFacts(
  document: Document,
  pageUrl: string,
  options: ExtractOptions = {},
): PageSeoFacts {
  const found = newFoundElements();
  walk(document.children, found);

  const baseUrl = (found.baseHref !== undefined && resolveUrl(found.baseHref, pageUrl)) || pageUrl;
  const title = found.title === null ? null : normalizeText(textContent(found.title.children));
  const description = found.description === null ? null : normalizeText(found.description);
  const isUniqueId = (id: string) => found.idCounts.get(id) === 1;

  return {
    title: title === null ? null : capText(title, MAX_STORED_TEXT),
    titleLength: title === null ? 0 : charLength(title),
    description: description === null ? null : capText(description, MAX_STORED_TEXT),
    descriptionLength: description === null ? 0 : charLength(description),
    h1Count: found.h1Count,
    canonical: canonicalUrl(found.canonicalHref, baseUrl),
    lang: nonBlank(found.lang),
    noindex: found.metaNoindex ? 'meta' : xRobotsTagNoindex(options.xRobotsTag) ? 'x-robots-tag' : null,
    viewport: nonBlank(found.viewport) !== null,
    imagesWithoutAltCount: found.imagesWithoutAltCount,
    imagesWithoutAlt: found.imageSamples.map((el) => ({
      src: imageSource(el, baseUrl),
      selector: positionalSelector(el, isUniqueId),
    })),
  };
}

/**
 * What one walk over the document collects. Where a page may hold several candidates (two
 * descriptions, a `<base>` without href before one with it), the first qualifying element in
 * document order wins, as with `$(selector).first()`.
 */
interface FoundElements {
  /** `href` of the first `<base href>`. */
  baseHref: string | undefined;
  /** The first `<title>` outside inline SVG (an SVG title names the graphic, not the page). */
  title: Element | null;
  /** `content` of the first `<meta name="description">` ('' when it has none); null without one. */
  description: string | null;
  viewport: string | null;
  /** `href` of the first `<link rel~="canonical" href>`; null without one. */
  canonicalHref: string | null;
  htmlSeen: boolean;
  /** `lang` of the first `<html>` element. */
  lang: string | undefined;
  /** Some `<meta name="robots">` or `<meta name="googlebot">` says noindex. */
  metaNoindex: boolean;
  h1Count: number;
  imagesWithoutAltCount: number;
  /** The first few images without alt, for the report to point at. */
  imageSamples: Element[];
  /** How often each id occurs, so image selectors anchor only on unique ids. */
  idCounts: Map<string, number>;
}

function newFoundElements(): FoundElements {
  return {
    baseHref: undefined,
    title: null,
    description: null,
    viewport: null,
    canonicalHref: null,
    htmlSeen: false,
    lang: undefined,
    metaNoindex: false,
    h1Count: 0,
    imagesWithoutAltCount: 0,
    imageSamples: [],
    idCounts: new Map(),
  };
}

/** css-select's test for `[rel~="canonical" i]`: a token bounded by whitespace (JS `\s`). */
const CANONICAL_REL = /(?:^|\s)canonical(?:$|\s)/i;
const PRESENTATIONAL_ROLE = /^(presentation|none)$/i;

/**
 * Pre-order walk (document order, like the selector engine) that touches each element once. It
 * descends only into elements, so the content of a `<template>` (a separate document fragment
 * under the element) is skipped: it is inert markup that browsers neither render nor index, and
 * the crawler's link extraction skips it too. Iterative (see walkElements): a hostile page nests
 * deeper than the stack.
 */
function walk(nodes: AnyNode[], found: FoundElements): void {
  walkElements(nodes, false, (node, insideSvg) => {
    const attribs = node.attribs;
    const id = attribs.id;
    if (id !== undefined) found.idCounts.set(id, (found.idCounts.get(id) ?? 0) + 1);

    switch (node.name) {
      case 'img':
        // Only a missing alt is flagged: `alt=""` is the correct markup for a decorative image,
        // and `role="presentation"`/`"none"` says the same.
        if (attribs.alt === undefined && !PRESENTATIONAL_ROLE.test((attribs.role ?? '').trim())) {
          found.imagesWithoutAltCount++;
          if (found.imageSamples.length < MAX_IMAGE_SAMPLES) found.imageSamples.push(node);
        }
        break;
      case 'h1':
        found.h1Count++;
        break;
      case 'meta':
        if (attribs.name !== undefined) readMeta(attribs.name, attribs.content ?? '', found);
        break;
      case 'link':
        if (
          found.canonicalHref === null &&
          attribs.href !== undefined &&
          CANONICAL_REL.test(attribs.rel ?? '')
        ) {
          found.canonicalHref = attribs.href;
        }
        break;
      case 'title':
        if (found.title === null && !insideSvg) found.title = node;
        break;
      case 'base':
        if (found.baseHref === undefined) found.baseHref = attribs.href;
        break;
      case 'html':
        if (!found.htmlSeen) {
          found.htmlSeen = true;
          found.lang = attribs.lang;
        }
        break;
    }
    return insideSvg || node.name === 'svg';
  });
}

/** Meta names are case-insensitive (`[name="..." i]`). */
function readMeta(name: string, content: string, found: FoundElements): void {
  switch (name.toLowerCase()) {
    case 'description':
      found.description ??= content;
      break;
    case 'viewport':
      found.viewport ??= content;
      break;
    case 'robots':
    case 'googlebot':
      // `<meta name="robots">` addresses every crawler, `googlebot` the one whose index matters most.
      if (!found.metaNoindex) found.metaNoindex = hasNoindexDirective(content.split(','));
      break;
  }
}

/** Concatenated text of the nodes and their descendants (what cheerio's `.text()` returns). */
function textContent(nodes: AnyNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'text') text += (node as Text).data;
    else if (node.type !== 'comment' && 'children' in node) text += textContent(node.children);
  }
  return text;
}

/** Collapses runs of whitespace (titles often span lines in templates) and trims. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Length in user-perceived characters, close enough: code points, not UTF-16 units. */
export function charLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

function capText(text: string, max: number): string {
  return charLength(text) <= max ? text : Array.from(text).slice(0, max).join('');
}

function nonBlank(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function resolveUrl(href: string, base: string): string | null {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

function canonicalUrl(rawHref: string | null, baseUrl: string): string | null {
  const href = nonBlank(rawHref);
  if (href === null) return null;
  // An unresolvable href is kept raw so the canonical-broken check can name it.
  return resolveUrl(href, baseUrl) ?? href;
}

/** Directive values that mean "do not index": `none` is shorthand for noindex, nofollow. */
function hasNoindexDirective(directives: Iterable<string>): boolean {
  for (const directive of directives) {
    const token = directive.trim().toLowerCase();
    if (token === 'noindex' || token === 'none') return true;
  }
  return false;
}

/** Directives with their own `name: value` syntax, which must not be read as a crawler scope. */
const VALUED_DIRECTIVES = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/**
 * Header directives may be scoped to a crawler (`otherbot: noindex, nofollow`); a scope lasts
 * until the next one. Unscoped directives and googlebot's count, like the robots meta tags.
 */
export function xRobotsTagNoindex(header: string | null | undefined): boolean {
  if (!header) return false;
  let scope: string | null = null;
  const applicable: string[] = [];
  for (const part of header.split(',')) {
    const scoped = /^\s*([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(part);
    let directive = part;
    if (scoped?.[1] && !VALUED_DIRECTIVES.has(scoped[1].toLowerCase())) {
      scope = scoped[1].toLowerCase();
      directive = scoped[2] ?? '';
    }
    if (scope === null || scope === 'googlebot') applicable.push(directive);
  }
  return hasNoindexDirective(applicable);
}

/** Lazy-loading scripts often keep the real address in `data-src`, the better pointer when `src` is missing. */
function imageSource(el: Element, baseUrl: string): string | null {
  const raw = nonBlank(el.attribs.src) ?? nonBlank(el.attribs['data-src']);
  if (raw === null) return null;
  const absolute = raw.toLowerCase().startsWith('data:') ? raw : (resolveUrl(raw, baseUrl) ?? raw);
  return absolute.length <= MAX_STORED_SRC ? absolute : `${absolute.slice(0, MAX_STORED_SRC - 1)}…`;
}
