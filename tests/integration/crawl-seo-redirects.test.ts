import { describe, expect, it } from 'vitest';
import { v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

const bed = crawlTestbed(() =>
  startServer('127.0.0.1', {
    '/': htmlPage('<a href="/old">Old</a> <a href="/renamed">Renamed</a> <a href="/kept">Kept</a>'),
    // /new is reachable only through /old's redirect.
    '/old': { status: 301, headers: { location: '/new' } },
    '/new': htmlPage('<p>new</p>'),
    // /kept is reached through /renamed's redirect too, but the home page also links it directly.
    '/renamed': { status: 308, headers: { location: '/kept' } },
    '/kept': htmlPage('<p>kept</p>'),
  }),
);

describe('SEO: pages reached only through redirects', () => {
  it('flags a page no crawled page links to directly, and not one that is also linked directly', async () => {
    const { db, site } = bed;
    const { token } = await signInOwner(db, 'redirects@example.com');
    const siteId = await registerAndCrawl(token, site.url());
    const report = await v1({ token }).GET('/v1/sites/{id}/seo-report', { params: { path: { id: siteId } } });
    expect(report.status).toBe(200);
    const redirectOnly = (report.body.checks as { check: string; pages: { pageUrl: string }[] }[]).find(
      (c) => c.check === 'redirect-only',
    );
    expect(redirectOnly?.pages.map((p) => p.pageUrl)).toEqual([site.url('/new')]);
  });
});
