import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchRobots,
  fetchRobotsText,
  MAX_CRAWL_DELAY_MS,
  MAX_ROBOTS_LINE_LENGTH,
  MAX_ROBOTS_RULES,
  MAX_ROBOTS_SITEMAPS,
  parseRobots,
  policyFrom,
} from '@/lib/crawl/engine/robots';
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

describe('parseRobots, RFC 9309 and Google reading', () => {
  const allowed = (robots: string, path: string) =>
    parseRobots('https://e.com/robots.txt', robots).isAllowed(`https://e.com${path}`);

  it('merges every group that names us, matching the product token case-insensitively', () => {
    const robots = [
      'user-agent: OtherBot',
      'disallow: /',
      'User-agent: sitewatchbot',
      'Disallow: /a',
      'User-agent: *',
      'Disallow: /',
      'USER-AGENT: SitewatchBot/1.0',
      'disallow: /b',
    ].join('\n');
    expect(allowed(robots, '/a/x')).toBe(false);
    expect(allowed(robots, '/b')).toBe(false);
    expect(allowed(robots, '/c')).toBe(true);
  });

  it('closes a group only with a rule line; Sitemap and unknown lines do not', () => {
    const robots = 'User-agent: SitewatchBot\nSitemap: https://e.com/s.xml\nUser-agent: *\nDisallow: /\n';
    expect(allowed(robots, '/x')).toBe(false);
    const unknown = 'User-agent: SitewatchBot\nInvalid-Unknown-Line: x\nUser-agent: *\nDisallow: /\n';
    expect(allowed(unknown, '/x')).toBe(false);
  });

  it('ignores rules before any User-agent line, and a group naming us with no rules allows all', () => {
    expect(allowed('Disallow: /\nUser-agent: *\nAllow: /x\n', '/y')).toBe(true);
    expect(allowed('User-agent: SitewatchBot\n\nUser-agent: FooBot\nDisallow: /\n', '/y')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /\n\nUser-agent: SitewatchBot\nAllow:\n', '/y')).toBe(true);
  });

  it('lets the longest match win and allow win a tie', () => {
    expect(allowed('User-agent: *\nDisallow: /x/page.html\nAllow: /x/\n', '/x/page.html')).toBe(false);
    expect(allowed('User-agent: *\nAllow: /x/page.html\nDisallow: /x/\n', '/x/page.html')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /\nAllow: /\n', '/x')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /x\nAllow: /x/\n', '/x')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /x\nAllow: /x/\n', '/x/')).toBe(true);
    expect(allowed('User-agent: *\nAllow: /page\nDisallow: /*.html\n', '/page.html')).toBe(false);
    expect(allowed('User-agent: *\nAllow: /page\nDisallow: /*.html\n', '/page')).toBe(true);
  });

  it('reads * as any run of characters and a final $ as the end of the path', () => {
    const robots = 'User-agent: *\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\nDisallow: /*.pdf$\n';
    expect(allowed(robots, '/foo/bar/quz')).toBe(false);
    expect(allowed(robots, '/foo//qux')).toBe(true);
    expect(allowed(robots, '/files/a.pdf')).toBe(false);
    expect(allowed(robots, '/files/a.pdf?x=1')).toBe(true);
    expect(allowed(robots, '/files/a.pdf.html')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /a$b\n', '/a$bc')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /*a*b$\n', '/xaab')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /*a*b$\n', '/xbab/')).toBe(true);
  });

  it('compares percent-encoded forms, escapes in upper case', () => {
    const robots = 'User-agent: *\nDisallow: /\nAllow: /foo/bar/ツ\nAllow: /a%2fb\nAllow: /sp ace\n';
    expect(allowed(robots, '/foo/bar/%E3%83%84')).toBe(true);
    expect(allowed(robots, '/foo/bar/ツ')).toBe(true);
    expect(allowed(robots, '/a%2Fb')).toBe(true);
    expect(allowed(robots, '/a%2fb')).toBe(true);
    expect(allowed(robots, '/sp%20ace')).toBe(true);
    expect(allowed(robots, '/other')).toBe(false);
  });

  it('reads comments, a missing colon, Google typos, CR line ends and a byte order mark', () => {
    expect(allowed('User-agent: *\n# Disallow: /\nDisallow: /foo/quz#qux\n', '/foo/bar')).toBe(true);
    expect(allowed('User-agent: *\n# Disallow: /\nDisallow: /foo/quz#qux\n', '/foo/quz')).toBe(false);
    expect(allowed('User-agent *\nDisallow /x\n', '/x')).toBe(false);
    expect(allowed('Useragent: *\nDisalow: /x\n', '/x')).toBe(false);
    expect(allowed('\uFEFFUser-agent: *\r\nDisallow: /x\rAllow: /x/y\r\n', '/x/y')).toBe(true);
    expect(allowed('\uFEFFUser-agent: *\r\nDisallow: /x\rAllow: /x/y\r\n', '/x/z')).toBe(false);
  });

  it('ignores what a line holds past the line length cap', () => {
    const long = `User-agent: *\nDisallow: /x${'a'.repeat(MAX_ROBOTS_LINE_LENGTH)}\nDisallow: /y\n`;
    const policy = parseRobots('https://e.com/robots.txt', long);
    expect(policy.isAllowed(`https://e.com/x${'a'.repeat(MAX_ROBOTS_LINE_LENGTH - 12)}`)).toBe(false);
    expect(policy.isAllowed('https://e.com/y')).toBe(false);
  });

  it('keeps at most MAX_ROBOTS_SITEMAPS sitemaps', () => {
    const lines = Array.from({ length: MAX_ROBOTS_SITEMAPS + 10 }, (_, i) => `Sitemap: /s${i}.xml`);
    const { sitemaps } = parseRobots('https://e.com/robots.txt', lines.join('\n'));
    expect(sitemaps).toHaveLength(MAX_ROBOTS_SITEMAPS);
    expect(sitemaps[0]).toBe('https://e.com/s0.xml');
  });
});

describe('a 500 KiB robots.txt of wildcard rules', () => {
  // Google's reference matcher (robots.cc `Matches`): the prefixes of the path the pattern so far
  // can match, kept as a sorted list; the definition the compiled rules must agree with.
  const positions = new Int32Array(4096);
  function referenceMatch(pattern: string, path: string): boolean {
    positions[0] = 0;
    let count = 1;
    for (let p = 0; p < pattern.length; p++) {
      if (pattern[p] === '$' && p === pattern.length - 1) return positions[count - 1] === path.length;
      if (pattern[p] === '*') {
        count = path.length - positions[0]! + 1;
        for (let i = 1; i < count; i++) positions[i] = positions[i - 1]! + 1;
      } else {
        let kept = 0;
        for (let i = 0; i < count; i++) {
          if (path[positions[i]!] === pattern[p]) positions[kept++] = positions[i]! + 1;
        }
        count = kept;
        if (count === 0) return false;
      }
    }
    return true;
  }
  function referenceAllowed(rules: { pattern: string; allow: boolean }[], path: string): boolean {
    let best: { pattern: string; allow: boolean } | null = null;
    for (const rule of rules) {
      if (!referenceMatch(rule.pattern, path)) continue;
      const longer = !best || rule.pattern.length > best.pattern.length;
      if (longer || (rule.pattern.length === best?.pattern.length && rule.allow)) best = rule;
    }
    return best?.allow ?? true;
  }

  const rules: { pattern: string; allow: boolean }[] = [];
  let text = 'User-agent: SitewatchBot\n';
  for (let i = 0; text.length < 500 * 1024; i++) {
    const rule =
      i % 3 === 2
        ? { pattern: `/*a*b*c*d*e*f*g*/${i}*x`, allow: true }
        : { pattern: `/*a*b*c*d*e*f*g*${i % 7 === 0 ? '/' : ''}${i}$`, allow: false };
    rules.push(rule);
    text += `${rule.allow ? 'Allow' : 'Disallow'}: ${rule.pattern}\n`;
  }

  it('keeps the first MAX_ROBOTS_RULES rules, says so, and judges 1,000 URLs as those rules do', () => {
    const policy = parseRobots('https://e.com/robots.txt', text);
    expect(rules.length).toBeGreaterThan(10_000);
    expect(policy.rules).toEqual({ found: rules.length, applied: MAX_ROBOTS_RULES });
    expect(policy.note).toBe(
      `robots.txt has ${rules.length} rules for SitewatchBot; the first ${MAX_ROBOTS_RULES} were applied`,
    );
    const applied = rules.slice(0, MAX_ROBOTS_RULES);
    let disallowed = 0;
    for (let j = 0; j < 1_000; j++) {
      const n = (j * 7) % (MAX_ROBOTS_RULES + 100);
      const path = j % 2 === 0 ? `/a/b/c/d/e/f/g/${n}` : `/a/b/c/d/e/f/g/${n}x`;
      const verdict = policy.isAllowed(`https://e.com${path}`);
      expect(verdict, path).toBe(referenceAllowed(applied, path));
      if (!verdict) disallowed++;
    }
    // The sample exercises both answers.
    expect(disallowed).toBeGreaterThan(100);
    expect(disallowed).toBeLessThan(900);
    // Rule 5002 (Disallow: /*a*b*c*d*e*f*g*5002$) is past the cap: its path is crawled.
    expect(rules[5002]).toEqual({ pattern: '/*a*b*c*d*e*f*g*5002$', allow: false });
    expect(referenceAllowed(rules, '/a/b/c/d/e/f/g/5002')).toBe(false);
    expect(policy.isAllowed('https://e.com/a/b/c/d/e/f/g/5002')).toBe(true);
  }, 60_000);
});
