import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import {
  type ImageWithoutAlt,
  MAX_IMAGE_SAMPLES,
  MAX_STORED_SRC,
  MAX_STORED_TEXT,
  type PageSeoFacts,
} from './facts';
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
export function extractSeoFacts($: CheerioAPI, pageUrl: string, options: ExtractOptions = {}): PageSeoFacts {
  const baseUrl = documentBaseUrl($, pageUrl);
  const title = documentTitle($);
  const description = metaContent($, 'description');
  const images = imagesWithoutAlt($, baseUrl);

  return {
    title: title === null ? null : capText(title, MAX_STORED_TEXT),
    titleLength: title === null ? 0 : charLength(title),
    description: description === null ? null : capText(description, MAX_STORED_TEXT),
    descriptionLength: description === null ? 0 : charLength(description),
    h1Count: $('h1').length,
    canonical: canonicalUrl($, baseUrl),
    lang: nonBlank($('html').first().attr('lang')),
    noindex: metaRobotsNoindex($) ? 'meta' : xRobotsTagNoindex(options.xRobotsTag) ? 'x-robots-tag' : null,
    viewport: nonBlank(metaContent($, 'viewport')) !== null,
    imagesWithoutAltCount: images.count,
    imagesWithoutAlt: images.samples,
  };
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

function documentBaseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  return (href !== undefined && resolveUrl(href, pageUrl)) || pageUrl;
}

function resolveUrl(href: string, base: string): string | null {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/** The document title; `<title>` inside inline SVG names the graphic, not the page. */
function documentTitle($: CheerioAPI): string | null {
  const element = $('title')
    .filter((_, el) => $(el).closest('svg').length === 0)
    .first();
  return element.length ? normalizeText(element.text()) : null;
}

/** Content of the first `<meta name=...>` (names are case-insensitive), or null if absent. */
function metaContent($: CheerioAPI, name: string): string | null {
  const element = $(`meta[name="${name}" i]`).first();
  return element.length ? normalizeText(element.attr('content') ?? '') : null;
}

function canonicalUrl($: CheerioAPI, baseUrl: string): string | null {
  const href = nonBlank($('link[rel~="canonical" i][href]').first().attr('href'));
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

/** `<meta name="robots">` addresses every crawler, `googlebot` the one whose index matters most. */
function metaRobotsNoindex($: CheerioAPI): boolean {
  return $('meta[name="robots" i], meta[name="googlebot" i]')
    .toArray()
    .some((el) => hasNoindexDirective(($(el).attr('content') ?? '').split(',')));
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
 * until the next one. Unscoped directives and googlebot's count, like the meta tags above.
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

/**
 * Images with no alt attribute at all. `alt=""` is the correct markup for a decorative image and
 * `role="presentation"`/`"none"` says the same, so neither is flagged. Lazy-loading scripts often
 * keep the real address in `data-src`, which is the more useful pointer when `src` is missing.
 */
function imagesWithoutAlt($: CheerioAPI, baseUrl: string): { count: number; samples: ImageWithoutAlt[] } {
  const missing = $('img:not([alt])')
    .toArray()
    .filter((el) => !/^(presentation|none)$/i.test((el.attribs.role ?? '').trim()));
  return {
    count: missing.length,
    samples: missing.slice(0, MAX_IMAGE_SAMPLES).map((el) => ({
      src: imageSource(el, baseUrl),
      selector: positionalSelector($, el),
    })),
  };
}

function imageSource(el: Element, baseUrl: string): string | null {
  const raw = nonBlank(el.attribs.src) ?? nonBlank(el.attribs['data-src']);
  if (raw === null) return null;
  const absolute = raw.toLowerCase().startsWith('data:') ? raw : (resolveUrl(raw, baseUrl) ?? raw);
  return absolute.length <= MAX_STORED_SRC ? absolute : `${absolute.slice(0, MAX_STORED_SRC - 1)}…`;
}
