import { describe, expect, it } from 'vitest';
import { withQuery } from '@/components/ui/query-href';
import { brokenTargetsQuery } from '@/lib/api/schemas/crawl-views';
import { encodeRedirectChain, redirectHops } from '@/lib/crawl/views/redirect-chain';
import { queryFromSearch } from '@/lib/dashboard/crawl';

/* The grouping, filters and sorts of the broken-targets list run in SQL: tests/integration/crawl-broken-targets-list.test.ts. */

describe('redirect chains and page queries', () => {
  it('reads a stored chain as hops, and no chain as none', () => {
    expect(
      redirectHops([
        { status: 302, url: '/a' },
        { status: 200, url: '/b' },
      ]),
    ).toEqual([
      { status: 302, url: '/a' },
      { status: 200, url: '/b' },
    ]);
    expect(redirectHops(null)).toEqual([]);
  });

  it("writes the spec's redirect_chain with each hop's status first, whatever order the stored keys came in", () => {
    expect(encodeRedirectChain([{ url: '/a', status: 301 }])).toBe('[{"status":301,"url":"/a"}]');
    expect(encodeRedirectChain(null)).toBeNull();
  });

  it('reads a report page query field by field, dropping what the API would refuse', () => {
    expect(
      queryFromSearch(brokenTargetsQuery, {
        sort: 'size',
        order: 'desc',
        kind: ['external', 'internal'],
        q: '',
        limit: '9999',
      }),
    ).toEqual({ order: 'desc', kind: 'external' });
  });

  it('builds links that keep the query, change what they change and drop empty values', () => {
    expect(
      withQuery('/p', { q: 'a b', sort: 'url', cursor: 'x' }, { cursor: undefined, order: 'desc' }),
    ).toBe('/p?q=a+b&sort=url&order=desc');
    expect(withQuery('/p', { q: '' })).toBe('/p');
  });
});
