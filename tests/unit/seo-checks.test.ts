import { describe, expect, it } from 'vitest';
import { parseHtml } from '@/lib/html/document';
import {
  DESCRIPTION_MAX_LENGTH,
  DESCRIPTION_MIN_LENGTH,
  deriveSeoIssues,
  isSeoCheckId,
  type ResolveTarget,
  SEO_CHECKS,
  SEO_IMPACTS,
  type SeoCheckId,
  type SeoPage,
  TITLE_MAX_LENGTH,
} from '@/lib/seo/checks';
import { extractSeoFacts } from '@/lib/seo/extract';

const GOOD_DESCRIPTION =
  'A clear summary of what this page offers, long enough to inform and short enough to show.';

/** Distinct per page, so healthy pages never share a description by accident. */
function descriptionOf(url: string): string {
  return `What ${new URL(url).pathname} offers, in words long enough to inform and short enough to show.`;
}

interface PageParts {
  lang?: string | null;
  title?: string | null;
  description?: string | null;
  viewport?: boolean;
  canonical?: string | null;
  head?: string;
  body?: string;
}

/** A page that passes every check unless a part is overridden. */
function html(url: string, parts: PageParts = {}): string {
  const lang = parts.lang === undefined ? 'en' : parts.lang;
  const title = parts.title === undefined ? `Page ${url}` : parts.title;
  const description = parts.description === undefined ? descriptionOf(url) : parts.description;
  const canonical = parts.canonical === undefined ? url : parts.canonical;
  return `<!doctype html>
    <html${lang === null ? '' : ` lang="${lang}"`}>
    <head>
      ${title === null ? '' : `<title>${title}</title>`}
      ${description === null ? '' : `<meta name="description" content="${description}">`}
      ${parts.viewport === false ? '' : '<meta name="viewport" content="width=device-width, initial-scale=1">'}
      ${canonical === null ? '' : `<link rel="canonical" href="${canonical}">`}
      ${parts.head ?? ''}
    </head>
    <body>${parts.body ?? '<h1>Heading</h1><img src="/logo.png" alt="Logo">'}</body></html>`;
}

function page(url: string, parts: PageParts = {}, extra: Partial<SeoPage> = {}): SeoPage {
  return { url, facts: extractSeoFacts(parseHtml(html(url, parts)), url), ...extra };
}

const nothingKnown: ResolveTarget = () => ({ state: 'unknown' });

function checksOf(pages: SeoPage[], resolve: ResolveTarget = nothingKnown): SeoCheckId[] {
  return deriveSeoIssues(pages, resolve).map((issue) => issue.check);
}

function issuesFor(pages: SeoPage[], check: SeoCheckId, resolve: ResolveTarget = nothingKnown) {
  return deriveSeoIssues(pages, resolve).filter((issue) => issue.check === check);
}

const A = 'https://example.com/a';
const B = 'https://example.com/b';
const C = 'https://example.com/c';

describe('catalogue', () => {
  it('lists every check once, with a known impact, a title and help', () => {
    const ids = SEO_CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(16);
    for (const check of SEO_CHECKS) {
      expect(SEO_IMPACTS).toContain(check.impact);
      expect(check.title.length).toBeGreaterThan(5);
      expect(check.help).toMatch(/;.+\.$/);
    }
  });

  it('recognises stored check ids', () => {
    expect(isSeoCheckId('canonical-redirect')).toBe(true);
    expect(isSeoCheckId('image-alt')).toBe(false);
  });
});

describe('deriveSeoIssues', () => {
  it('finds nothing on a healthy page', () => {
    expect(deriveSeoIssues([page(A)], nothingKnown)).toEqual([]);
  });

  describe('title', () => {
    it('flags a missing or empty title as critical', () => {
      const [missing] = issuesFor([page(A, { title: null })], 'title-missing');
      expect(missing).toEqual({
        check: 'title-missing',
        impact: 'critical',
        pageUrl: A,
        detail: 'The page has no <title> element',
      });
      expect(issuesFor([page(A, { title: '   ' })], 'title-missing')[0]?.detail).toBe('The <title> is empty');
    });

    it('flags a title over the limit with its length', () => {
      const long = 'x'.repeat(74);
      const [issue] = issuesFor([page(A, { title: long })], 'title-too-long');
      expect(issue).toMatchObject({
        impact: 'minor',
        value: 74,
        detail: 'Title is 74 characters (limit 60)',
      });
      expect(checksOf([page(A, { title: 'x'.repeat(TITLE_MAX_LENGTH) })])).not.toContain('title-too-long');
    });

    it('gives every page sharing a title its own issue naming how many others share it', () => {
      const pages = [
        page(A, { title: 'Welcome' }),
        page(B, { title: '  welcome ' }),
        page(C, { title: 'WELCOME' }),
        page('https://example.com/d', { title: 'Different' }),
      ];
      const issues = issuesFor(pages, 'title-duplicate');
      expect(issues.map((issue) => issue.pageUrl)).toEqual([A, B, C]);
      expect(issues.map((issue) => issue.value)).toEqual([2, 2, 2]);
      expect(issues[0]).toMatchObject({
        impact: 'moderate',
        detail: `Title is shared with 2 other pages, e.g. ${B}`,
      });
      expect(issues[1]?.detail).toBe(`Title is shared with 2 other pages, e.g. ${A}`);
    });

    it('says "1 other page" for a pair', () => {
      const issues = issuesFor([page(A, { title: 'Same' }), page(B, { title: 'Same' })], 'title-duplicate');
      expect(issues[0]?.detail).toBe(`Title is shared with 1 other page, e.g. ${B}`);
    });

    it('does not treat missing titles as duplicates of each other', () => {
      const pages = [page(A, { title: null }), page(B, { title: '' })];
      expect(checksOf(pages)).not.toContain('title-duplicate');
    });

    it('handles a title shared by a whole large site', () => {
      const facts = page(A, { title: 'Shop' }).facts;
      const pages = Array.from({ length: 5000 }, (_, i) => {
        const url = `https://example.com/p/${i}`;
        return { url, facts: { ...facts, canonical: url } };
      });
      const issues = issuesFor(pages, 'title-duplicate');
      expect(issues).toHaveLength(5000);
      expect(issues.every((issue) => issue.value === 4999)).toBe(true);
      expect(issues[0]?.detail).toBe('Title is shared with 4999 other pages, e.g. https://example.com/p/1');
    });

    it('counts a page handed over twice once', () => {
      const pages = [page(A, { title: 'Same' }), page(A, { title: 'Same' })];
      expect(checksOf(pages)).not.toContain('title-duplicate');
    });
  });

  describe('meta description', () => {
    it('flags a missing or empty description', () => {
      const [missing] = issuesFor([page(A, { description: null })], 'description-missing');
      expect(missing).toMatchObject({ impact: 'moderate', detail: 'The page has no meta description' });
      expect(issuesFor([page(A, { description: '' })], 'description-missing')[0]?.detail).toBe(
        'The meta description is empty',
      );
    });

    it('flags descriptions outside 70-160 characters and accepts the bounds', () => {
      const short = issuesFor([page(A, { description: 'Too short.' })], 'description-length');
      expect(short[0]).toMatchObject({
        impact: 'minor',
        value: 10,
        detail: 'Meta description is 10 characters (minimum 70)',
      });
      const long = issuesFor([page(A, { description: 'y'.repeat(200) })], 'description-length');
      expect(long[0]?.detail).toBe('Meta description is 200 characters (limit 160)');

      for (const length of [DESCRIPTION_MIN_LENGTH, DESCRIPTION_MAX_LENGTH]) {
        expect(checksOf([page(A, { description: 'z'.repeat(length) })])).not.toContain('description-length');
      }
    });

    it('flags descriptions shared across pages', () => {
      const pages = [
        page(A, { description: GOOD_DESCRIPTION }),
        page(B, { description: GOOD_DESCRIPTION }),
        page(C, { description: `${GOOD_DESCRIPTION} Plus more.` }),
      ];
      const issues = issuesFor(pages, 'description-duplicate');
      expect(issues.map((issue) => [issue.pageUrl, issue.value, issue.impact])).toEqual([
        [A, 1, 'minor'],
        [B, 1, 'minor'],
      ]);
      expect(issues[0]?.detail).toBe(`Meta description is shared with 1 other page, e.g. ${B}`);
    });
  });

  describe('h1', () => {
    it('flags a page without h1', () => {
      const [issue] = issuesFor([page(A, { body: '<h2>Sub</h2>' })], 'h1-missing');
      expect(issue).toMatchObject({ impact: 'moderate', value: 0, detail: 'The page has no <h1> heading' });
    });

    it('flags several h1', () => {
      const [issue] = issuesFor([page(A, { body: '<h1>One</h1><h1>Two</h1>' })], 'h1-multiple');
      expect(issue).toMatchObject({ impact: 'minor', value: 2, detail: 'The page has 2 <h1> headings' });
    });
  });

  describe('canonical', () => {
    it('flags a missing canonical', () => {
      const [issue] = issuesFor([page(A, { canonical: null })], 'canonical-missing');
      expect(issue).toMatchObject({ impact: 'minor', pageUrl: A });
    });

    it('does not ask about a self-referencing canonical, fragment or not', () => {
      const asked: string[] = [];
      const resolve: ResolveTarget = (url) => {
        asked.push(url);
        return { state: 'broken', statusCode: 404 };
      };
      expect(checksOf([page(A), page(B, { canonical: `${B}#top` })], resolve)).toEqual([]);
      expect(asked).toEqual([]);
    });

    it('flags a canonical the crawl found broken, with its status', () => {
      const target = 'https://example.com/gone';
      const resolve: ResolveTarget = (url) =>
        url === target ? { state: 'broken', statusCode: 404 } : { state: 'unknown' };
      const [issue] = issuesFor([page(A, { canonical: '/gone' })], 'canonical-broken', resolve);
      expect(issue).toEqual({
        check: 'canonical-broken',
        impact: 'critical',
        pageUrl: A,
        detail: `Canonical ${target} answers HTTP 404`,
        value: target,
      });
    });

    it('flags a canonical the crawl could not fetch at all', () => {
      const resolve: ResolveTarget = () => ({ state: 'broken', statusCode: null });
      const [issue] = issuesFor([page(A, { canonical: B })], 'canonical-broken', resolve);
      expect(issue?.detail).toBe(`Canonical ${B} could not be fetched`);
    });

    it('flags a canonical that redirects, naming where to', () => {
      const resolve: ResolveTarget = (url) =>
        url === B ? { state: 'redirect', finalUrl: `${B}/`, statusCode: 301 } : { state: 'unknown' };
      const [issue] = issuesFor([page(A, { canonical: B })], 'canonical-redirect', resolve);
      expect(issue).toMatchObject({
        impact: 'moderate',
        detail: `Canonical ${B} redirects to ${B}/`,
        value: B,
      });
    });

    it('accepts canonicals that resolve fine or were never checked', () => {
      const resolve: ResolveTarget = (url) =>
        url === B ? { state: 'ok', statusCode: 200 } : { state: 'unknown' };
      expect(
        checksOf([page(A, { canonical: B }), page(C, { canonical: 'https://other.example/' })], resolve),
      ).toEqual([]);
    });

    it('flags canonicals that are not web addresses without asking', () => {
      const resolve: ResolveTarget = () => {
        throw new Error('should not be asked');
      };
      const invalid = issuesFor([page(A, { canonical: 'http://[bad' })], 'canonical-broken', resolve);
      expect(invalid[0]?.detail).toBe('Canonical "http://[bad" is not a valid URL');
      const mailto = issuesFor(
        [page(A, { canonical: 'mailto:seo@example.com' })],
        'canonical-broken',
        resolve,
      );
      expect(mailto[0]?.detail).toBe('Canonical mailto:seo@example.com is not a web address');
    });

    it('asks once per distinct canonical target', () => {
      let calls = 0;
      const resolve: ResolveTarget = () => {
        calls++;
        return { state: 'redirect', finalUrl: 'https://example.com/home' };
      };
      const pages = [A, B, C].map((url) => page(url, { canonical: 'https://example.com/' }));
      expect(issuesFor(pages, 'canonical-redirect', resolve)).toHaveLength(3);
      expect(calls).toBe(1);
    });
  });

  it('flags a missing html lang', () => {
    const [issue] = issuesFor([page(A, { lang: null })], 'lang-missing');
    expect(issue).toMatchObject({ impact: 'minor', detail: 'The <html> element has no lang attribute' });
  });

  it('flags noindex from the markup or the header', () => {
    const [meta] = issuesFor([page(A, { head: '<meta name="robots" content="noindex">' })], 'noindex');
    expect(meta).toMatchObject({
      impact: 'serious',
      value: 'meta',
      detail: 'A robots meta tag says noindex',
    });

    const facts = extractSeoFacts(parseHtml(html(B)), B, { xRobotsTag: 'noindex' });
    const [header] = issuesFor([{ url: B, facts }], 'noindex');
    expect(header).toMatchObject({ value: 'x-robots-tag', detail: 'The X-Robots-Tag header says noindex' });
  });

  it('flags a missing viewport', () => {
    const [issue] = issuesFor([page(A, { viewport: false })], 'viewport-missing');
    expect(issue).toMatchObject({ impact: 'serious', detail: 'The page has no viewport meta tag' });
  });

  describe('images without alt', () => {
    it('flags a page with images lacking alt, counting them and pointing at the first', () => {
      const body =
        '<h1>H</h1><main><img src="/one.png"><img src="/two.png"><img src="/ok.png" alt="Ok"></main>';
      const [issue] = issuesFor([page(A, { body })], 'img-alt-missing');
      expect(issue).toMatchObject({
        impact: 'moderate',
        value: 2,
        detail:
          '2 images have no alt attribute, first: https://example.com/one.png (html > body > main > img:nth-of-type(1))',
      });
    });

    it('does not flag decorative images with alt=""', () => {
      const body = '<h1>H</h1><img src="/divider.png" alt=""><img src="/spacer.gif" alt>';
      expect(checksOf([page(A, { body })])).toEqual([]);
    });
  });

  it('flags pages reached only through redirects', () => {
    const issues = issuesFor(
      [
        page(A, {}, { reachedOnlyViaRedirect: true }),
        page(B, {}, { reachedOnlyViaRedirect: false }),
        page(C),
      ],
      'redirect-only',
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ pageUrl: A, impact: 'moderate' });
  });

  describe('pages left out of duplicate groups', () => {
    it('leaves noindex pages out, while still reporting their noindex', () => {
      const noindex = '<meta name="robots" content="noindex">';
      const pages = [page(A, { title: 'Same' }), page(B, { title: 'Same', head: noindex })];
      const checks = deriveSeoIssues(pages, nothingKnown).map((issue) => [issue.pageUrl, issue.check]);
      expect(checks).toEqual([[B, 'noindex']]);
    });

    it('still groups the remaining indexable pages', () => {
      const noindex = '<meta name="robots" content="noindex">';
      const pages = [
        page(A, { title: 'Same' }),
        page(B, { title: 'Same', head: noindex }),
        page(C, { title: 'Same' }),
      ];
      const issues = issuesFor(pages, 'title-duplicate');
      expect(issues.map((issue) => [issue.pageUrl, issue.value])).toEqual([
        [A, 1],
        [C, 1],
      ]);
    });

    it('leaves pages canonicalised to another URL out', () => {
      const resolve: ResolveTarget = () => ({ state: 'ok', statusCode: 200 });
      const pages = [page(A), page(`${A}?sort=price`, { canonical: A, title: `Page ${A}` })];
      const checks = deriveSeoIssues(pages, resolve).map((issue) => issue.check);
      expect(checks).toEqual([]);
    });
  });

  it('lists issues page by page in catalogue order', () => {
    const pages = [
      page(A, { title: null, description: null, lang: null, viewport: false, canonical: null, body: '' }),
      page(B, { lang: null }),
    ];
    expect(deriveSeoIssues(pages, nothingKnown).map((issue) => [issue.pageUrl, issue.check])).toEqual([
      [A, 'title-missing'],
      [A, 'description-missing'],
      [A, 'h1-missing'],
      [A, 'canonical-missing'],
      [A, 'lang-missing'],
      [A, 'viewport-missing'],
      [B, 'lang-missing'],
    ]);
  });
});
