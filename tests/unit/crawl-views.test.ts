import { describe, expect, it } from 'vitest';
import { withQuery } from '@/components/ui/query-href';
import { brokenTargetsQuery } from '@/lib/api/schemas/crawl-views';
import {
  brokenStatusClass,
  compareBrokenTargets,
  groupBrokenTargets,
  matchesBrokenTarget,
} from '@/lib/crawl/broken-targets';
import { parseRedirectChain } from '@/lib/crawl/redirect-chain';
import type { BrokenLinkResource } from '@/lib/crawl/report';
import { queryFromSearch } from '@/lib/dashboard/crawl';

/** A report row: `target` broken as linked from `source`. */
function row(target: string, source: string, extra: Partial<BrokenLinkResource> = {}): BrokenLinkResource {
  return {
    id: `${target} ${source}`,
    run_id: 'run',
    tenant_id: 't',
    source_url: source,
    target_url: target,
    status: 'broken',
    status_code: 404,
    kind: 'internal',
    redirect_chain: null,
    detail: 'not found (404)',
    created_at: 0,
    link_text: 'text',
    link_selector: 'a',
    link_attrs: null,
    ...extra,
  };
}

const rows = [
  row('https://a.test/gone', 'https://a.test/'),
  row('https://a.test/gone', 'https://a.test/x'),
  row('https://a.test/gone', 'https://a.test/y'),
  row('https://b.test/down', 'https://a.test/x', { kind: 'external', status_code: 503 }),
  row('https://a.test/old', 'https://a.test/', {
    status_code: 410,
    redirect_chain:
      '[{"status":301,"url":"https://a.test/old"},{"status":410,"url":"https://a.test/closed"}]',
  }),
  row('http://', 'https://a.test/y', { status_code: null, detail: 'invalid URL: "http://"' }),
];

describe('the dead-link report grouped by target', () => {
  const groups = groupBrokenTargets(
    rows,
    { newTargets: ['https://b.test/down'] },
    new Map([['https://a.test/gone', 100]]),
    500,
  );
  const byUrl = new Map(groups.map((g) => [g.target_url, g]));

  it('gives each target its linking pages, first seen (the run start by default), new and parsed hops', () => {
    expect(byUrl.get('https://a.test/gone')).toMatchObject({
      linking_pages: 3,
      first_seen: 100,
      is_new: false,
    });
    expect(byUrl.get('https://b.test/down')).toMatchObject({
      linking_pages: 1,
      first_seen: 500,
      is_new: true,
    });
    expect(byUrl.get('https://a.test/old')!.hops).toEqual([
      { status: 301, url: 'https://a.test/old' },
      { status: 410, url: 'https://a.test/closed' },
    ]);
  });

  it('sorts the sitewide problems first by default, ties by URL, and reverses on request', () => {
    const order = (sort: Parameters<typeof compareBrokenTargets>[0], dir: 'asc' | 'desc') =>
      [...groups].sort(compareBrokenTargets(sort, dir)).map((g) => g.target_url);
    expect(order('pages', 'desc')).toEqual([
      'https://a.test/gone',
      'http://',
      'https://a.test/old',
      'https://b.test/down',
    ]);
    // No status sorts lowest.
    expect(order('status', 'asc')[0]).toBe('http://');
    expect(order('status', 'desc')[0]).toBe('https://b.test/down');
    expect(order('kind', 'asc').at(-1)).toBe('https://b.test/down');
    expect(order('firstSeen', 'asc')[0]).toBe('https://a.test/gone');
  });

  it('filters by kind, status class, new, and a search over targets and linking pages', () => {
    const matching = (query: Parameters<typeof matchesBrokenTarget>[1]) =>
      groups.filter((g) => matchesBrokenTarget(g, query)).map((g) => g.target_url);
    expect(matching({ kind: 'external' })).toEqual(['https://b.test/down']);
    expect(matching({ status: '5xx' })).toEqual(['https://b.test/down']);
    expect(matching({ status: 'error' })).toEqual(['http://']);
    expect(matching({ change: 'new' })).toEqual(['https://b.test/down']);
    expect(matching({ q: 'A.TEST/Y' }).sort()).toEqual(['http://', 'https://a.test/gone']);
  });

  it('classes statuses: 304 is a 3xx, no code and nonsense codes are errors', () => {
    expect([304, 404, 500, null, 200, 999].map(brokenStatusClass)).toEqual([
      '3xx',
      '4xx',
      '5xx',
      'error',
      'error',
      'error',
    ]);
  });
});

describe('redirect chains and page queries', () => {
  it('reads a stored chain as hops, and anything else as none', () => {
    expect(parseRedirectChain('[{"status":302,"url":"/a"},{"url":"/b"}]')).toEqual([
      { status: 302, url: '/a' },
      { status: null, url: '/b' },
    ]);
    expect(parseRedirectChain(null)).toEqual([]);
    expect(parseRedirectChain('a -> b')).toEqual([]);
    expect(parseRedirectChain('{"url":"/a"}')).toEqual([]);
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
