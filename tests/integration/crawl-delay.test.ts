import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/** When each page request arrived and was answered, as the site saw it. */
const visits: { path: string; start: number; end: number }[] = [];

const page = (links: string) => async (req: IncomingMessage, res: ServerResponse) => {
  const start = Date.now();
  await new Promise((r) => setTimeout(r, 20));
  const { headers, body } = htmlPage(links);
  res.writeHead(200, headers);
  res.end(body);
  visits.push({ path: req.url ?? '', start, end: Date.now() });
};

const bed = crawlTestbed(() =>
  startServer('127.0.0.1', {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 1\n' },
    '/': page('<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>'),
    '/a': page(''),
    '/b': page(''),
    '/c': page(''),
  }),
);

describe('robots.txt Crawl-delay', () => {
  it('fetches one page at a time, starting each at least the delay after the previous one', async () => {
    const { db, site } = bed;
    const { token } = await signInOwner(db, 'polite@example.com');
    const siteId = await registerAndCrawl(token, site.url(), { maxConcurrency: 50 });
    const status = await v1({ token }).GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } });
    expect(status.body.latestRun).toMatchObject({ state: 'completed', pages_crawled: 4 });
    const pages = [...visits].sort((x, y) => x.start - y.start);
    expect(pages.map((v) => v.path).sort()).toEqual(['/', '/a', '/b', '/c']);
    for (let i = 1; i < pages.length; i++) {
      // Never two at once, and the delay honoured between starts (1 s, a few ms of clock slack).
      expect(pages[i]!.start).toBeGreaterThanOrEqual(pages[i - 1]!.end);
      expect(pages[i]!.start - pages[i - 1]!.start).toBeGreaterThanOrEqual(990);
    }
  });
});
