import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSitemapUrls, parseSitemap } from '@/lib/crawl/engine/sitemap';
import { startServer, type TestServer } from '@/tests/support/http-server';

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `  <url><loc>${loc}</loc><lastmod>2024-01-01</lastmod></url>`).join('\n')}
</urlset>`;

const index = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`).join('\n')}
</sitemapindex>`;

const xml = { 'content-type': 'application/xml' };

describe('parseSitemap', () => {
  it('reads a urlset, decoding entities and CDATA', () => {
    const parsed = parseSitemap(
      urlset(['https://e.com/a?x=1&amp;y=2', ' https://e.com/b ', '<![CDATA[https://e.com/c]]>']),
    );
    expect(parsed).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/a?x=1&y=2', 'https://e.com/b', 'https://e.com/c'],
    });
  });

  it('reads a sitemap index', () => {
    expect(parseSitemap(index(['https://e.com/s1.xml']))).toEqual({
      kind: 'index',
      locs: ['https://e.com/s1.xml'],
    });
  });

  it('ignores namespace prefixes and image entries', () => {
    const body = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <sm:url><sm:loc>https://e.com/p</sm:loc><image:image><image:loc>https://e.com/i.png</image:loc></image:image></sm:url>
    </sm:urlset>`;
    expect(parseSitemap(body)).toEqual({ kind: 'urlset', locs: ['https://e.com/p'] });
  });

  it('reads a plain-text sitemap', () => {
    expect(parseSitemap('https://e.com/a\r\n\nnot a url\nhttps://e.com/b\n')).toEqual({
      kind: 'text',
      locs: ['https://e.com/a', 'https://e.com/b'],
    });
  });
});

describe('fetchSitemapUrls', () => {
  let site: TestServer;
  beforeAll(async () => {
    site = await startServer('127.0.0.1');
    const u = (path: string) => site.url(path);
    site.route('/sitemap.xml', {
      body: index([u('/pages.xml.gz'), u('/nested-index.xml'), u('/missing.xml')]),
      headers: xml,
    });
    site.route('/pages.xml.gz', {
      body: gzipSync(urlset([u('/a'), u('/b'), u('/a')])),
      headers: { 'content-type': 'application/gzip' },
    });
    site.route('/nested-index.xml', { body: index([u('/deep.xml'), u('/sitemap.xml')]), headers: xml });
    site.route('/deep.xml', {
      body: gzipSync(urlset([u('/c'), 'mailto:x@e.com', '/relative'])),
      headers: { ...xml, 'content-encoding': 'gzip' },
    });
  });
  afterAll(() => site.close());

  it('follows nested indexes, decodes gzip either way, and reports unreadable sitemaps', async () => {
    const result = await fetchSitemapUrls([site.url('/sitemap.xml')]);
    expect(result.urls).toEqual([site.url('/a'), site.url('/b'), site.url('/c'), site.url('/relative')]);
    expect(result.sitemapsRead).toBe(5);
    expect(result.problems).toEqual([`sitemap ${site.url('/missing.xml')} answered 404`]);
    // The index that lists itself again is read once.
    expect(site.hits('/sitemap.xml')).toBe(1);
  });

  it('stops at the depth bound', async () => {
    const result = await fetchSitemapUrls([site.url('/sitemap.xml')], { maxDepth: 1 });
    expect(result.urls).toEqual([site.url('/a'), site.url('/b')]);
  });

  it('stops at the URL and file bounds', async () => {
    expect((await fetchSitemapUrls([site.url('/sitemap.xml')], { maxUrls: 1 })).urls).toEqual([
      site.url('/a'),
    ]);
    const few = await fetchSitemapUrls([site.url('/sitemap.xml')], { maxSitemaps: 2 });
    expect(few.sitemapsRead).toBe(2);
    expect(few.urls).toEqual([site.url('/a'), site.url('/b')]);
  });
});
