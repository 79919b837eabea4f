import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobsIdle } from '@/jobs/runtime';
import { notificationOutbox } from '@/lib/db/schema';
import type { CrawlSummaryPayload } from '@/lib/notify/kinds';
import { buildMessage } from '@/lib/notify/message';
import { v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/**
 * The crawl summary mail (issue 24 item 11): it counts the pages that hold the broken links, not the
 * pages crawled, and goes out only when something changed since the previous completed crawl (the
 * first crawl always). Real crawls of a local site through the crawl route and the embedded runner;
 * the queued summaries read from the outbox and worded by the mail's own message builder.
 */
const bed = crawlTestbed(() =>
  startServer('127.0.0.1', {
    // Eight pages; the three broken links are on two of them (the home page and /a).
    '/': htmlPage(
      ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/x1', '/x2']
        .map((p) => `<a href="${p}">${p}</a>`)
        .join(' '),
      'Home',
    ),
    '/a': htmlPage('<a href="/x1">x1</a> <a href="/x3">x3</a>', 'Alpha page'),
    '/b': htmlPage('<p>b</p>', 'Bravo page'),
    '/c': htmlPage('<p>c</p>', 'Charlie page'),
    '/d': htmlPage('<p>d</p>', 'Delta page'),
    '/e': htmlPage('<p>e</p>', 'Echo page'),
    '/f': htmlPage('<p>f</p>', 'Foxtrot page'),
    '/g': htmlPage('<p>g</p>', 'Golf page'),
  }),
);

let token: string;
let siteId: string;

async function summaries() {
  const rows = await bed.db
    .select()
    .from(notificationOutbox)
    .where(and(eq(notificationOutbox.site_id, siteId), eq(notificationOutbox.kind, 'crawl-summary')))
    .orderBy(asc(notificationOutbox.created_at));
  return rows.map((row) => {
    const payload = row.payload as Record<string, unknown>;
    const message = buildMessage('crawl-summary', payload as Partial<CrawlSummaryPayload>, {
      eventId: row.id,
      occurredAt: row.created_at,
      appUrl: 'https://sitewatch.example',
      organizationName: 'Summary test',
      site: { id: siteId, hostname: bed.site.host },
    });
    return { payload, message };
  });
}

/** Another crawl of the site through the API, to its end; the crawls' states, newest first. */
async function crawlAgain(): Promise<string[]> {
  const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await jobsIdle();
  const runs = await v1({ token }).GET('/v1/sites/{id}/runs', {
    params: { path: { id: siteId }, query: { kind: 'crawl' } },
  });
  return (runs.body.runs as { state: string }[]).map((r) => r.state);
}

describe('the crawl summary', () => {
  it('says how many pages hold the broken links, and is sent only when something changed', async () => {
    ({ token } = await signInOwner(bed.db, 'summary@example.com'));
    siteId = await registerAndCrawl(token, bed.site.url(), { seoEnabled: true });

    // The first completed crawl always sends: 3 broken links on 2 of the 8 pages.
    const [first, ...none] = await summaries();
    expect(none).toEqual([]);
    expect(first?.payload).toMatchObject({ brokenCount: 3, pagesWithBroken: 2, pagesCrawled: 8 });
    expect(first?.message.summary).toBe(
      `The crawl of ${bed.site.host} found 3 broken links on 2 pages (8 pages crawled).`,
    );
    expect(first?.message.facts).toContainEqual({
      label: 'Since the last crawl',
      value: 'the first completed crawl of this site',
    });

    // The same site crawled again: nothing new, nothing fixed, no mail.
    expect(await crawlAgain()).toEqual(['completed', 'completed']);
    expect(await summaries()).toHaveLength(1);

    // One broken link fixed (/x1 answers now), one new (/b links /x4): a summary saying so.
    // (/x1 answers with a text file: a new HTML page would bring SEO issues of its own.)
    bed.site.route('/x1', { headers: { 'content-type': 'text/plain' }, body: 'back' });
    bed.site.route('/b', htmlPage('<a href="/x4">x4</a>', 'Bravo page'));
    expect(await crawlAgain()).toEqual(['completed', 'completed', 'completed']);
    const afterLinks = await summaries();
    expect(afterLinks).toHaveLength(2);
    expect(afterLinks[1]?.payload).toMatchObject({
      brokenCount: 3,
      pagesWithBroken: 3,
      changes: { brokenNew: 1, brokenFixed: 1, seoNew: 0, seoFixed: 0, a11yChanged: false },
    });
    expect(afterLinks[1]?.message.facts).toContainEqual({
      label: 'Since the last crawl',
      value: '1 new broken link, 1 fixed',
    });

    // Only an SEO issue changes (a page loses its title): that is a change too.
    bed.site.route('/g', {
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><html lang="en"><head></head><body><p>g</p></body></html>',
    });
    await crawlAgain();
    const afterSeo = await summaries();
    expect(afterSeo).toHaveLength(3);
    const seoChanges = afterSeo[2]?.payload.changes as Record<string, number>;
    expect(seoChanges).toMatchObject({ brokenNew: 0, brokenFixed: 0, seoFixed: 0 });
    expect(seoChanges.seoNew).toBeGreaterThan(0);

    // And unchanged again: no fourth summary.
    await crawlAgain();
    expect(await summaries()).toHaveLength(3);
  });
});
