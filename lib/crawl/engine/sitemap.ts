import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { load } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { fetchFollowing, NetError } from '@/lib/net';

/** sitemaps.org: a sitemap file may hold 50,000 URLs and 50 MB uncompressed. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const DEFAULTS = { maxDepth: 3, maxSitemaps: 50, maxUrls: 50_000, timeoutMs: 15_000 };

const gunzip = promisify(zlib.gunzip);

export interface ParsedSitemap {
  /** `index` lists other sitemaps; `urlset` and `text` list pages. */
  kind: 'urlset' | 'index' | 'text';
  locs: string[];
}

function localName(el: Element): string {
  const name = el.name.toLowerCase();
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function isElement(node: AnyNode): node is Element {
  return node.type === 'tag';
}

/**
 * The `<loc>` entries of a `<urlset>` or `<sitemapindex>` document (namespace prefixes ignored), or
 * the lines of a plain-text sitemap. Entries are returned as written, trimmed; callers resolve and
 * filter them.
 */
export function parseSitemap(body: string): ParsedSitemap {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith('<')) {
    const locs = trimmed
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//i.test(line));
    return { kind: 'text', locs };
  }
  const $ = load(body, { xml: true });
  const rootElement = $.root()
    .children()
    .toArray()
    .find((node): node is Element => isElement(node));
  const kind = rootElement && localName(rootElement) === 'sitemapindex' ? 'index' : 'urlset';
  const entryName = kind === 'index' ? 'sitemap' : 'url';
  const locs: string[] = [];
  for (const entry of rootElement?.children ?? []) {
    if (!isElement(entry) || localName(entry) !== entryName) continue;
    for (const field of entry.children) {
      if (isElement(field) && localName(field) === 'loc') {
        const loc = $(field).text().trim();
        if (loc !== '') locs.push(loc);
      }
    }
  }
  return { kind, locs };
}

export interface SitemapOptions {
  /** How many levels of nested sitemap indexes are followed below the given sitemaps. */
  maxDepth?: number;
  /** Sitemap files fetched in all. */
  maxSitemaps?: number;
  /** Page URLs collected in all; reading stops once reached. */
  maxUrls?: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

export interface SitemapResult {
  /** Distinct absolute http(s) page URLs, in document order. */
  urls: string[];
  sitemapsRead: number;
  /** One plain-words line per sitemap that could not be read. */
  problems: string[];
}

async function decodeBody(body: Buffer): Promise<string> {
  // Gzip is recognised by its magic bytes: `.xml.gz` files are served both with and without
  // Content-Encoding, and lib/net has already decoded the latter.
  if (body[0] === 0x1f && body[1] === 0x8b) {
    return (await gunzip(body, { maxOutputLength: MAX_SITEMAP_BYTES })).toString('utf8');
  }
  return body.toString('utf8');
}

/**
 * Page URLs from sitemaps (typically those listed in robots.txt plus `/sitemap.xml`), following
 * nested indexes breadth-first within the depth, file and URL bounds. Unreadable sitemaps are
 * reported in `problems`, never thrown: sitemaps only seed the crawl.
 */
export async function fetchSitemapUrls(
  sitemapUrls: readonly string[],
  options: SitemapOptions = {},
): Promise<SitemapResult> {
  const { maxDepth, maxSitemaps, maxUrls, timeoutMs } = { ...DEFAULTS, ...stripUndefined(options) };
  const queue: { url: string; depth: number }[] = sitemapUrls.map((url) => ({ url, depth: 0 }));
  const seenSitemaps = new Set<string>();
  const urls = new Set<string>();
  const problems: string[] = [];
  let sitemapsRead = 0;

  while (queue.length > 0 && sitemapsRead < maxSitemaps && urls.size < maxUrls) {
    const { url, depth } = queue.shift() as { url: string; depth: number };
    if (seenSitemaps.has(url)) continue;
    seenSitemaps.add(url);
    sitemapsRead++;

    let parsed: ParsedSitemap;
    try {
      const response = await fetchFollowing({
        url,
        maxBytes: MAX_SITEMAP_BYTES,
        timeoutMs,
        allowPrivate: options.allowPrivate,
        signal: options.signal,
        headers: { accept: 'application/xml, text/xml, text/plain;q=0.9, */*;q=0.5' },
      });
      if (response.status < 200 || response.status >= 300) {
        problems.push(`sitemap ${url} answered ${response.status}`);
        continue;
      }
      parsed = parseSitemap(await decodeBody(response.body));
    } catch (err) {
      if (err instanceof NetError && err.code === 'aborted') throw err;
      const reason = err instanceof NetError ? err.detail : 'could not be decoded';
      problems.push(`sitemap ${url}: ${reason}`);
      continue;
    }

    for (const loc of parsed.locs) {
      const absolute = absoluteHttpUrl(loc, url);
      if (absolute === null) continue;
      if (parsed.kind === 'index') {
        if (depth < maxDepth) queue.push({ url: absolute, depth: depth + 1 });
      } else {
        urls.add(absolute);
        if (urls.size >= maxUrls) break;
      }
    }
  }
  return { urls: [...urls], sitemapsRead, problems };
}

function absoluteHttpUrl(loc: string, base: string): string | null {
  try {
    const url = new URL(loc, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
