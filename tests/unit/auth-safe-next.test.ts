import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT_PATH, safeNextPath } from '@/components/auth/safe-next';

const ORIGIN = 'http://localhost:3000';

/** Where a browser on the app's origin would land when told to go to `path`. */
const landing = (path: string) => new URL(path, `${ORIGIN}/`).origin;

describe('safeNextPath', () => {
  it.each([
    ['/sites', '/sites'],
    ['/sites/abc/report?tab=seo#broken', '/sites/abc/report?tab=seo#broken'],
    ['/a/../sites', '/sites'],
    // An absolute URL on the app's own origin is fine; what comes back is its path.
    [`${ORIGIN}/billing?x=1`, '/billing?x=1'],
    // Encoded slashes and backslashes stay inside one path segment: same origin, kept as they are.
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/%5C%5Cevil.example', '/%5C%5Cevil.example'],
  ])('keeps the same-origin destination %j', (value, expected) => {
    expect(safeNextPath(value, ORIGIN)).toBe(expected);
  });

  it.each([
    // `?next=/%09/evil.example` arrives decoded: browsers drop the tab and read `//evil.example`.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    // Resolves to the path `//evil.example`, which is itself another site.
    '/.//evil.example',
    '/..//evil.example',
    'https://evil.example',
    'https://evil.example/sites',
    'https:evil.example',
    'HTTPS://evil.example',
    'https://localhost:3001/sites',
    'https://localhost:3000/sites',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//user@evil.example',
    '/\t\\evil.example',
  ])('falls back instead of leaving the origin for %j', (value) => {
    expect(safeNextPath(value, ORIGIN)).toBe(DEFAULT_NEXT_PATH);
  });

  it('reads a scheme-relative `http:evil.example` the way a browser on the origin does', () => {
    // On an https app it names another origin; on an http app a browser reads it as a relative path.
    expect(safeNextPath('http:evil.example', 'https://sitewatch.example')).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath('http:/evil.example', 'https://sitewatch.example')).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath('http:evil.example', ORIGIN)).toBe('/evil.example');
    expect(landing('http:evil.example')).toBe(ORIGIN);
  });

  it('takes the first of repeated parameters and falls back on nothing or a bad origin', () => {
    expect(safeNextPath(['/keys', '//evil.example'], ORIGIN)).toBe('/keys');
    expect(safeNextPath(['//evil.example', '/keys'], ORIGIN)).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath(undefined, ORIGIN)).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath('', ORIGIN)).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath('/keys', 'not a url')).toBe(DEFAULT_NEXT_PATH);
    expect(safeNextPath('//evil.example', ORIGIN, '/elsewhere')).toBe('/elsewhere');
  });

  it('never returns a destination a browser would resolve to another origin', () => {
    const hostile = ['/\t/evil.example', '/.//evil.example', '/\\evil.example', 'http:evil.example'];
    for (const value of hostile) expect(landing(safeNextPath(value, ORIGIN))).toBe(ORIGIN);
  });
});
