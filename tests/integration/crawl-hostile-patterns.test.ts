import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_ROBOTS_RULES } from '@/lib/crawl/engine/robots';
import { runs } from '@/lib/db/schema';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/*
 * A site built to make pattern matching expensive: a 500 KiB robots.txt of wildcard rules, and an
 * exclude glob that a backtracking matcher takes 41 s to answer for one 60-character path, linked
 * from every page. The crawl must finish with exactly the pages the rules leave.
 */

const HOSTILE_GLOB = '/a*a*a*a*a*a*a*a*b';
const EXCLUDED = `/${'a'.repeat(58)}b`;
const KEPT = `/${'a'.repeat(59)}`;

function hostileRobots(): { text: string; rules: number } {
  let text = 'User-agent: *\nDisallow: /secret\n';
  let rules = 1;
  while (text.length < 500 * 1024) {
    text += `Disallow: /*a*b*c*d*e*f*g*/${rules}$\n`;
    rules++;
  }
  // Past the cap: not applied, so /late is crawled and the run says why.
  text += 'Disallow: /late\n';
  return { text, rules: rules + 1 };
}

const robots = hostileRobots();
const links = ['/a', '/secret', '/late', EXCLUDED, KEPT, '/a/b/c/d/e/f/g/5', '/a/b/c/d/e/f/g/x']
  .map((href) => `<a href="${href}">${href.slice(0, 12)}</a>`)
  .join(' ');

const bed = crawlTestbed(() =>
  startServer('127.0.0.1', {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robots.text },
    '/': htmlPage(links),
    '/a': htmlPage(links),
    '/secret': htmlPage(links),
    '/late': htmlPage(links),
    [EXCLUDED]: htmlPage(links),
    [KEPT]: htmlPage(links),
    '/a/b/c/d/e/f/g/5': htmlPage(links),
    '/a/b/c/d/e/f/g/x': htmlPage(links),
  }),
);

describe('a site with hostile patterns', () => {
  it('is crawled to completion with the pages its rules leave, and the robots cap noted', async () => {
    const { db, site } = bed;
    const { token } = await signInOwner(db, 'patterns@example.com');
    const siteId = await registerAndCrawl(token, site.url(), { excludePaths: [HOSTILE_GLOB] });

    const [run] = await db.select().from(runs).where(eq(runs.site_id, siteId));
    expect(run).toMatchObject({ state: 'completed', pages_crawled: 5 });
    const fetched = site.requests
      .map((r) => r.path)
      .filter((path) => path !== '/robots.txt' && path !== '/sitemap.xml');
    expect([...new Set(fetched)].sort()).toEqual(['/', '/a', '/a/b/c/d/e/f/g/x', '/late', KEPT].sort());
    expect(robots.rules).toBeGreaterThan(MAX_ROBOTS_RULES);
    expect(run?.settings?.robots?.note).toBe(
      `robots.txt has ${robots.rules} rules for all crawlers (*); the first ${MAX_ROBOTS_RULES} were applied`,
    );
  }, 120_000);
});
