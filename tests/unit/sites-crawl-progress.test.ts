import { describe, expect, it } from 'vitest';
import { crawlProgress } from '@/components/sites/crawl-progress';

/*
 * The overview's crawl progress bar (issue 12): it measured pages crawled against maxPages (5,000 by
 * default), so a small site's bar stayed nearly empty to the end. It measures what is known instead.
 */
describe('crawlProgress', () => {
  it('measures URLs checked against the URLs found so far, not against maxPages', () => {
    const p = crawlProgress({ state: 'crawling', linksChecked: 30, inFlight: 4, pending: 6 });
    expect(p).toEqual({ value: 30, max: 40, label: 'URLs checked: 30 of 40 found so far' });
    // Three quarters done on a 40-URL site, whatever the site's maxPages.
    expect((p.value ?? 0) / p.max).toBe(0.75);
  });

  it('fills when nothing is left, even when the page cap left pages unparsed (they are checked)', () => {
    expect(crawlProgress({ state: 'crawling', linksChecked: 1_234, inFlight: 0, pending: 0 })).toMatchObject({
      value: 1_234,
      max: 1_234,
    });
  });

  it('is indeterminate while the crawl seeds or has found nothing yet', () => {
    expect(crawlProgress({ state: 'seeding', linksChecked: 0, inFlight: 0, pending: 3 }).value).toBeNull();
    expect(crawlProgress({ state: 'crawling', linksChecked: 0, inFlight: 0, pending: 0 }).value).toBeNull();
  });
});
