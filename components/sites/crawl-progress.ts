import type { LiveCrawlState } from '@/components/api/types';

/** What the crawl's progress bar shows: how far, out of what, in words. */
export type CrawlProgress = { value: number | null; max: number; label: string };

/**
 * The crawl's progress measured against what is known: URLs checked out of the URLs found so far
 * (checked, in flight, waiting), a total that grows as pages are parsed. maxPages is no measure:
 * it caps the pages parsed, not the URLs checked (the links found on the last pages are still
 * checked), and a 40-page site measured against 5,000 would show an empty bar to the end. While the
 * crawl seeds nothing is known yet: `value` null, an indeterminate bar.
 */
export function crawlProgress(
  live: Pick<LiveCrawlState, 'state' | 'linksChecked' | 'inFlight' | 'pending'>,
): CrawlProgress {
  const found = live.linksChecked + live.inFlight + live.pending;
  if (live.state === 'seeding' || found === 0) {
    return { value: null, max: 1, label: 'Reading robots.txt and sitemaps' };
  }
  const n = new Intl.NumberFormat('en');
  return {
    value: live.linksChecked,
    max: found,
    label: `URLs checked: ${n.format(live.linksChecked)} of ${n.format(found)} found so far`,
  };
}
