import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_LINKS_PER_PAGE } from '@/lib/crawl/engine/extract';
import { crawlUrls, runs } from '@/lib/db/schema';
import { MAX_HTML_NESTING } from '@/lib/html/document';
import { MAX_SELECTOR_LENGTH } from '@/lib/seo/selector';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/*
 * Issue 10 item 6: the page that killed the server. 1,000 nested elements around 20,000 links
 * made extraction copy the ancestor stack and build a 1,000-step selector per link, out of memory.
 * Crawled through the real engine, it must complete in bounded time and memory, take at most
 * MAX_LINKS_PER_PAGE links and record that it did, and keep selectors bounded.
 */

const NESTING = 1000;
const LINKS = 20_000;

function hostilePage(): string {
  // One link the walk can anchor near (a unique id within the selector bounds), then the flood.
  // The flood's targets are excluded from the crawl, so the test measures extraction, not checks.
  const flood = Array.from({ length: LINKS }, (_, i) => `<a href=/x/${i}>${i % 10}</a>`).join('');
  return `${'<div>'.repeat(NESTING)}<p id="deep-anchor"><a href="/ok">ok</a></p><a href="/deep">deep</a>${flood}<a href="/after-cap">late</a>${'</div>'.repeat(NESTING)}`;
}

/** A page nested past MAX_HTML_NESTING: read down to there, and the run says so. */
function tooDeepPage(): string {
  const depth = MAX_HTML_NESTING + 500;
  return `<a href="/deep-top">top</a>${'<div>'.repeat(depth)}<a href="/deep-bottom">bottom</a>${'</div>'.repeat(depth)}`;
}

const bed = crawlTestbed(async () => {
  const site = await startServer('127.0.0.1', {
    '/robots.txt': { status: 404 },
    '/': htmlPage(hostilePage()),
    '/ok': htmlPage('fine'),
    '/deep': htmlPage(tooDeepPage()),
    '/deep-top': htmlPage('top'),
  });
  return site;
});

describe('a hostile page', () => {
  // No timing assertion (speed belongs to the benchmarks): the test's own timeout catches a stall.
  it('is crawled in bounded memory, its links capped and the cap recorded', async () => {
    const { token } = await signInOwner(bed.db, 'hostile@example.com');
    const S = bed.site.origin;
    expect(htmlPage(hostilePage()).body.length).toBeGreaterThan(250_000);

    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
    let siteId: string;
    try {
      siteId = await registerAndCrawl(token, bed.site.url(), { excludePaths: ['/x/**'] });
    } finally {
      clearInterval(sampler);
    }
    // Before: well over a gigabyte of selectors and stack copies for this one page.
    expect(peak - baseline).toBeLessThan(400 * 1024 * 1024);

    const [run] = await bed.db.select().from(runs).where(eq(runs.site_id, siteId));
    expect(run).toMatchObject({ state: 'completed', error: null });
    expect(run?.limits_hit).toEqual(
      expect.arrayContaining([
        {
          limit: 'links-per-page',
          detail: `${S}/ has more than ${MAX_LINKS_PER_PAGE} links: only its first ${MAX_LINKS_PER_PAGE} were checked`,
        },
        {
          limit: 'html-bytes',
          detail: `${S}/deep nests elements more than ${MAX_HTML_NESTING} deep: it was read for links only down to there`,
        },
      ]),
    );

    const frontier = await bed.db
      .select()
      .from(crawlUrls)
      .where(eq(crawlUrls.run_id, run?.id ?? ''));
    const byUrl = new Map(frontier.map((u) => [u.url, u]));
    expect(byUrl.get(`${S}/ok`)).toMatchObject({ verdict: 'ok', is_page: 1 });
    expect(byUrl.get(`${S}/deep-top`)).toMatchObject({ verdict: 'ok', is_page: 1 });
    // Past the links cap, and past the nesting cap: never discovered.
    expect(byUrl.has(`${S}/after-cap`)).toBe(false);
    expect(byUrl.has(`${S}/deep-bottom`)).toBe(false);

    const [root] = await bed.db
      .select()
      .from(crawlUrls)
      .where(and(eq(crawlUrls.run_id, run?.id ?? ''), eq(crawlUrls.url, `${S}/`)));
    const links = root?.links ?? [];
    const selectorOf = (url: string) => links.find(([target]) => target === url)?.[2];
    expect(selectorOf(`${S}/ok`)).toBe('#deep-anchor > a:nth-of-type(1)');
    // 1,000 levels with no id in reach: no bounded selector finds it, so none is stored.
    expect(selectorOf(`${S}/deep`)).toBeNull();
    for (const [, , selector] of links) {
      expect(selector === null || selector.length <= MAX_SELECTOR_LENGTH).toBe(true);
    }
  });
});
