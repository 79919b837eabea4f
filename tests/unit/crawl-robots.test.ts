import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchRobots,
  fetchRobotsText,
  MAX_CRAWL_DELAY_MS,
  parseRobots,
  policyFrom,
} from '@/lib/crawl/robots';
import { closedPort, startServer, type TestServer } from '@/tests/support/http-server';

const ROBOTS = `
User-agent: *
Disallow: /private
Crawl-delay: 2

User-agent: SitewatchBot
Disallow: /no-bots
Allow: /no-bots/welcome
Crawl-delay: 0.5

Sitemap: https://example.com/sitemap.xml
Sitemap: /relative-sitemap.xml
`;

describe('parseRobots', () => {
  it('applies the SitewatchBot group when present, instead of *', () => {
    const policy = parseRobots('https://example.com/robots.txt', ROBOTS);
    expect(policy.source).toBe('file');
    expect(policy.isAllowed('https://example.com/no-bots/page')).toBe(false);
    expect(policy.isAllowed('https://example.com/no-bots/welcome/x')).toBe(true);
    // The * group's rules do not apply once a group names us.
    expect(policy.isAllowed('https://example.com/private')).toBe(true);
    expect(policy.crawlDelayMs).toBe(500);
  });

  it('falls back to the * group', () => {
    const policy = parseRobots(
      'https://example.com/robots.txt',
      'User-agent: *\nDisallow: /private\nCrawl-delay: 2\n',
    );
    expect(policy.isAllowed('https://example.com/private/x')).toBe(false);
    expect(policy.isAllowed('https://example.com/public')).toBe(true);
    expect(policy.crawlDelayMs).toBe(2000);
  });

  it('judges the path and query whatever the scheme or port', () => {
    const policy = parseRobots('https://example.com/robots.txt', 'User-agent: *\nDisallow: /search?\n');
    expect(policy.isAllowed('http://example.com/search?q=1')).toBe(false);
    expect(policy.isAllowed(new URL('https://example.com:8443/search'))).toBe(true);
  });

  it('caps Crawl-delay', () => {
    const policy = parseRobots('https://example.com/robots.txt', 'User-agent: *\nCrawl-delay: 3600\n');
    expect(policy.crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(parseRobots('https://example.com/robots.txt', 'User-agent: *\nDisallow:\n').crawlDelayMs).toBe(0);
  });

  it('lists sitemaps as absolute URLs', () => {
    expect(parseRobots('https://example.com/robots.txt', ROBOTS).sitemaps).toEqual([
      'https://example.com/sitemap.xml',
      'https://example.com/relative-sitemap.xml',
    ]);
  });
});

describe('fetchRobots', () => {
  let site: TestServer;
  beforeAll(async () => {
    site = await startServer('127.0.0.1');
  });
  afterAll(() => site.close());

  it('reads robots.txt, following a redirect', async () => {
    site.route('/robots.txt', { status: 301, headers: { location: '/real-robots.txt' } });
    site.route('/real-robots.txt', {
      body: 'User-agent: *\nDisallow: /admin\n',
      headers: { 'content-type': 'text/plain' },
    });
    const policy = await fetchRobots(site.origin);
    expect(policy.source).toBe('file');
    expect(policy.isAllowed(site.url('/admin/users'))).toBe(false);
    expect(policy.isAllowed(site.url('/'))).toBe(true);
  });

  it('returns the raw text for storing, and rebuilds the same policy from it', async () => {
    site.route('/robots.txt', { body: 'User-agent: *\nDisallow: /tmp\n' });
    const fetched = await fetchRobotsText(site.origin);
    expect(fetched).toEqual({
      url: site.url('/robots.txt'),
      text: 'User-agent: *\nDisallow: /tmp\n',
      source: 'file',
      note: null,
    });
    const stored = JSON.parse(JSON.stringify(fetched));
    expect(policyFrom(stored).isAllowed(site.url('/tmp/x'))).toBe(false);
    expect(policyFrom({ ...stored, text: null, source: 'unreachable', note: 'n' })).toMatchObject({
      source: 'unreachable',
      note: 'n',
    });
  });

  it('allows everything when robots.txt is missing', async () => {
    site.route('/robots.txt', { status: 404 });
    const policy = await fetchRobots(site.origin);
    expect(policy).toMatchObject({ source: 'none', note: null, crawlDelayMs: 0, sitemaps: [] });
    expect(policy.isAllowed(site.url('/admin'))).toBe(true);
  });

  it('allows everything on a server error, and says so', async () => {
    site.route('/robots.txt', { status: 503 });
    const policy = await fetchRobots(site.origin);
    expect(policy.source).toBe('unreachable');
    expect(policy.note).toBe('robots.txt answered 503; crawled without robots rules');
    expect(policy.isAllowed(site.url('/admin'))).toBe(true);
  });

  it('allows everything when the host does not answer, and says so', async () => {
    const port = await closedPort('127.0.0.2');
    const policy = await fetchRobots(`http://127.0.0.2:${port}`);
    expect(policy.source).toBe('unreachable');
    expect(policy.note).toBe(
      'robots.txt could not be fetched (connection refused by 127.0.0.2); crawled without robots rules',
    );
  });
});
