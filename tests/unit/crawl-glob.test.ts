import { describe, expect, it } from 'vitest';
import { compileGlobs, globProblem } from '@/lib/crawl/engine/glob';
import { compileExcludes, validateExcludeGlob } from '@/lib/crawl/engine/url';

const matches = (pattern: string, path: string) => compileGlobs([pattern]).matches(path);

describe('glob syntax', () => {
  it('keeps * and ? inside one segment, and lets ** as a whole segment cross them', () => {
    expect(matches('/a/*', '/a/b')).toBe(true);
    expect(matches('/a/*', '/a/b/c')).toBe(false);
    expect(matches('/a/?', '/a/b')).toBe(true);
    expect(matches('/a/?', '/a//')).toBe(false);
    expect(matches('/a/**', '/a')).toBe(true);
    expect(matches('/a/**', '/a/b/c')).toBe(true);
    expect(matches('/a/**', '/ab')).toBe(false);
    expect(matches('/a/**/b', '/a/b')).toBe(true);
    expect(matches('/a/**/b', '/a/x/y/b')).toBe(true);
    expect(matches('/a/**/b', '/a/xb')).toBe(false);
    expect(matches('**/b', '/x/b')).toBe(true);
    expect(matches('**/b', '/xb')).toBe(false);
    // Inside a segment, ** is one *.
    expect(matches('/a**b', '/axb')).toBe(true);
    expect(matches('/a**b', '/ax/yb')).toBe(false);
  });

  it('does not let a * that is the whole last segment match an empty one', () => {
    expect(matches('/private/*', '/private/')).toBe(false);
    expect(matches('/*', '/')).toBe(false);
    expect(matches('/private/x*', '/private/x')).toBe(true);
  });

  it('reads classes, braces and escapes', () => {
    expect(matches('/a/[bc]', '/a/c')).toBe(true);
    expect(matches('/a/[a-c]x', '/a/dx')).toBe(false);
    expect(matches('/a/[!b]', '/a/c')).toBe(true);
    expect(matches('/a/[^b]', '/a/b')).toBe(false);
    expect(matches('/a/[]]', '/a/]')).toBe(true);
    expect(matches('/a[/]b', '/a/b')).toBe(false);
    expect(matches('/a/{b,c/d}', '/a/c/d')).toBe(true);
    expect(matches('/a/{b,{c,d}e}', '/a/de')).toBe(true);
    expect(matches('/a/b{,.html}', '/a/b')).toBe(true);
    expect(matches('/a/b{,.html}', '/a/b.htm')).toBe(false);
    expect(matches('/a\\*', '/a*')).toBe(true);
    expect(matches('/a\\*', '/ab')).toBe(false);
    expect(matches('/(a)+$', '/(a)+$')).toBe(true);
  });

  it('reads malformed parts literally, and names the first problem', () => {
    expect(matches('/a/[b', '/a/[b')).toBe(true);
    expect(matches('/a/{b', '/a/{b')).toBe(true);
    expect(globProblem('/a/[b')).toBe('a [ is never closed');
    expect(globProblem('/a/{b,c')).toBe('a { is never closed');
    expect(globProblem('/a/b}')).toBe('a } has no matching {');
    expect(globProblem('/a\\')).toBe('it ends with a \\ that escapes nothing');
    expect(globProblem('/a/[z-a]')).toBe('the range z-a runs backwards');
    expect(globProblem('/a/{b,[c}]}')).toBeNull();
    expect(globProblem('/blog/**/*.{html,pdf}')).toBeNull();
  });

  it('refuses malformed patterns at validation with the reason', () => {
    expect(validateExcludeGlob('/a/[b')).toBe('is not a valid glob pattern: a [ is never closed');
    expect(validateExcludeGlob('/docs/{a,b')).toBe('is not a valid glob pattern: a { is never closed');
    expect(validateExcludeGlob('/docs/[a-z]/{x,y}/**')).toBeNull();
  });
});

describe('glob cost', () => {
  it('answers /a*a*a*a*a*a*a*a*b on a 60-character path without backtracking', () => {
    const set = compileGlobs(['/a*a*a*a*a*a*a*a*b']);
    const miss = `/${'a'.repeat(59)}`;
    const hit = `/${'a'.repeat(58)}b`;
    const missed = set.matchWithSteps(miss);
    expect(missed.matched).toBe(false);
    expect(set.matchWithSteps(hit).matched).toBe(true);
    // Each state is visited at most once per character: the bound that makes it linear.
    expect(missed.steps).toBeLessThanOrEqual((miss.length + 1) * set.size);
    // A backtracking matcher explores on the order of C(59, 8) ≈ 2·10^9 splits for this path.
    expect(missed.steps).toBeLessThan(2_000);
  });

  it('grows linearly with the path on adversarial inputs', () => {
    const pattern = `**/${'*a'.repeat(100)}*b`;
    const set = compileGlobs([pattern]);
    const short = set.matchWithSteps(`/${'a'.repeat(1_000)}`);
    const long = set.matchWithSteps(`/${'a'.repeat(10_000)}`);
    expect(short.matched).toBe(false);
    expect(long.matched).toBe(false);
    expect(set.matchWithSteps(`/${'a'.repeat(10_000)}b`).matched).toBe(true);
    expect(long.steps).toBeLessThanOrEqual(10_002 * set.size);
    // Ten times the path, about ten times the work (not a power of it).
    expect(long.steps / short.steps).toBeLessThan(11);
  }, 30_000);

  it('stops reading once no pattern can match', () => {
    const set = compileGlobs(['/blog/**', '/a*a*a*a*b']);
    const path = `/x${'a'.repeat(5_000)}`;
    const result = set.matchWithSteps(path);
    expect(result.matched).toBe(false);
    expect(result.steps).toBeLessThan(3 * set.size);
  });

  it('serves compileExcludes with the same answers as before for the documented forms', () => {
    const excluded = compileExcludes(['/a*a*a*a*a*a*a*a*b', '*.pdf', '/blog/**']);
    expect(excluded(`https://e.com/${'a'.repeat(59)}`)).toBe(false);
    expect(excluded(`https://e.com/${'a'.repeat(58)}b/`)).toBe(true);
    expect(excluded('https://e.com/files/x.pdf?download=1')).toBe(true);
    expect(excluded('https://e.com/blog')).toBe(true);
    expect(excluded('https://e.com/en/blog')).toBe(false);
  });
});
