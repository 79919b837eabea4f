import { describe, expect, it } from 'vitest';
import {
  compileExcludes,
  isExcludedPath,
  isSameSite,
  normalizeUrl,
  validateExcludeGlob,
  validateStripParam,
} from '@/lib/crawl/engine/url';

describe('normalizeUrl', () => {
  it('resolves relative references against the base', () => {
    expect(normalizeUrl('../b/c', 'https://example.com/a/x/y')).toBe('https://example.com/a/b/c');
    expect(normalizeUrl('//cdn.example.net/x.js', 'https://example.com/')).toBe(
      'https://cdn.example.net/x.js',
    );
    expect(normalizeUrl('?page=2', 'https://example.com/list?page=1')).toBe(
      'https://example.com/list?page=2',
    );
  });

  it('lowercases scheme and host, drops default ports, keeps path case', () => {
    expect(normalizeUrl('HTTP://Example.COM:80/About/Team')).toBe('http://example.com/About/Team');
    expect(normalizeUrl('https://example.com:443/')).toBe('https://example.com/');
    expect(normalizeUrl('https://example.com:8443/')).toBe('https://example.com:8443/');
    expect(normalizeUrl('https://example.com')).toBe('https://example.com/');
  });

  it('drops the fragment and an empty query', () => {
    expect(normalizeUrl('https://example.com/a#top')).toBe('https://example.com/a');
    expect(normalizeUrl('https://example.com/a?#x')).toBe('https://example.com/a');
    expect(normalizeUrl('https://example.com/a?')).toBe('https://example.com/a');
    // A query of "?" is not empty, and a second # belongs to the fragment.
    expect(normalizeUrl('https://example.com/a??')).toBe('https://example.com/a??');
    expect(normalizeUrl('https://example.com/a?q=1#x#y')).toBe('https://example.com/a?q=1');
    expect(normalizeUrl('https://example.com/a%23b?c%23d')).toBe('https://example.com/a%23b?c%23d');
  });

  it('strips the named parameters only, case-sensitively, keeping the rest as written', () => {
    const strip = new Set(['utm_source', 'utm_medium', 'sessionid']);
    expect(normalizeUrl('https://e.com/p?utm_source=x&id=7&utm_medium=y', undefined, strip)).toBe(
      'https://e.com/p?id=7',
    );
    expect(normalizeUrl('https://e.com/p?utm_source=x', undefined, strip)).toBe('https://e.com/p');
    expect(normalizeUrl('https://e.com/p?SessionId=1', undefined, strip)).toBe('https://e.com/p?SessionId=1');
    expect(normalizeUrl('https://e.com/p?q=a%20b+c&sessionid', undefined, strip)).toBe(
      'https://e.com/p?q=a%20b+c',
    );
    expect(normalizeUrl('https://e.com/p?utm%5Fsource=x&b=2', undefined, ['utm_source'])).toBe(
      'https://e.com/p?b=2',
    );
  });

  it('rejects what is not http(s)', () => {
    expect(normalizeUrl('mailto:a@b.c')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('ftp://example.com/')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
  });
});

describe('isSameSite', () => {
  it('compares the exact hostname, ignoring case, port, scheme and a trailing dot', () => {
    expect(isSameSite('https://Example.com:8080/x', 'example.com')).toBe(true);
    expect(isSameSite('http://example.com./x', 'example.com')).toBe(true);
    expect(isSameSite('https://www.example.com/', 'example.com')).toBe(false);
    expect(isSameSite('https://example.com.evil.net/', 'example.com')).toBe(false);
    expect(isSameSite('garbage', 'example.com')).toBe(false);
  });

  it('reads the host past userinfo, ports and IPv6 brackets, as the URL parser does', () => {
    const cases: [string, string][] = [
      ['https://user:pa@ss@example.com/x', 'example.com'],
      ['https://evil.net@example.com/', 'example.com'],
      ['https://example.com@evil.net/', 'evil.net'],
      ['http://[::1]:8080/x', '[::1]'],
      ['http://127.0.0.1:3000?x', '127.0.0.1'],
      ['https://example.com#frag', 'example.com'],
      // Forms the parser reinterprets: a backslash is a path separator, tabs are removed, %-escapes decoded.
      ['http://evil.net\\@example.com/', 'evil.net'],
      ['http://exa\tmple.com/', 'example.com'],
      ['http://ex%61mple.com/', 'example.com'],
    ];
    for (const [url, host] of cases) {
      expect(new URL(url).hostname).toBe(host);
      expect(isSameSite(url, host)).toBe(true);
      expect(isSameSite(url, 'other.test')).toBe(false);
    }
  });
});

describe('exclude globs', () => {
  const match = (globs: string[], path: string) => isExcludedPath(`https://e.com${path}`, globs);

  it('anchors patterns that start with a slash', () => {
    expect(match(['/blog/**'], '/blog')).toBe(true);
    expect(match(['/blog/**'], '/blog/2024/post')).toBe(true);
    expect(match(['/blog/**'], '/en/blog/post')).toBe(false);
    expect(match(['/private/*'], '/private/x')).toBe(true);
    expect(match(['/private/*'], '/private/x/y')).toBe(false);
  });

  it('matches patterns without a leading slash at any depth', () => {
    expect(match(['*.pdf'], '/files/2024/report.pdf')).toBe(true);
    expect(match(['*.pdf'], '/report.pdf')).toBe(true);
    expect(match(['tag/**'], '/en/tag/news')).toBe(true);
    expect(match(['*.pdf'], '/report.pdf.html')).toBe(false);
  });

  it('ignores the query string and a trailing slash, and decodes the path', () => {
    expect(match(['/search'], '/search?q=x')).toBe(true);
    expect(match(['/about'], '/about/')).toBe(true);
    expect(match(['/café/*'], '/caf%C3%A9/menu')).toBe(true);
    expect(match(['/Admin/**'], '/admin/x')).toBe(false);
  });

  it('compiles once for the hot path', () => {
    const excluded = compileExcludes(['/cart', '/account/**', '']);
    expect(excluded('https://e.com/cart')).toBe(true);
    expect(excluded(new URL('https://e.com/account/orders'))).toBe(true);
    expect(excluded('https://e.com/')).toBe(false);
    expect(compileExcludes([])('https://e.com/anything')).toBe(false);
  });

  it('validates entries with messages a user can act on', () => {
    expect(validateExcludeGlob('/blog/**')).toBeNull();
    expect(validateExcludeGlob('*.pdf')).toBeNull();
    expect(validateExcludeGlob('  ')).toBe('must be a non-empty path pattern');
    expect(validateExcludeGlob('https://e.com/blog')).toBe(
      'must be a path pattern such as /blog/**, not a full URL',
    );
    expect(validateExcludeGlob('/a#b')).toMatch(/fragment/);
    expect(validateExcludeGlob(`/${'a'.repeat(600)}`)).toBe('must be at most 500 characters');
    expect(validateExcludeGlob('/a\nb')).toBe('must not contain control characters');
  });

  it('validates strip parameter names', () => {
    expect(validateStripParam('utm_source')).toBeNull();
    expect(validateStripParam('')).toBe('must be a non-empty query parameter name');
    expect(validateStripParam('a=b')).toMatch(/bare query parameter name/);
    expect(validateStripParam('utm source')).toMatch(/bare query parameter name/);
  });
});
