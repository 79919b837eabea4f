import { describe, expect, it } from 'vitest';
import { latestRunSentence } from '@/components/sites/crawl-panel';

/*
 * The site overview's line about the latest crawl. A failed crawl's reason is the crawler's
 * lower-case clause; it read "... after 0s. the root URL ... could not be fetched" (a sentence
 * starting in lower case) before it followed a colon.
 */

const started = Date.UTC(2026, 10, 24, 7, 21, 0);

describe('the latest crawl sentence', () => {
  it('joins a failure reason with a colon and ends with one full stop', () => {
    expect(
      latestRunSentence({
        state: 'failed',
        started_at: started,
        finished_at: started + 75,
        error:
          'the root URL https://example.com/ could not be fetched: DNS lookup failed for host example.com',
      }),
    ).toBe(
      'Latest crawl failed Nov 24, 2026, 7:21 AM UTC after <1s: the root URL https://example.com/ could not be fetched: DNS lookup failed for host example.com.',
    );
  });

  it('does not double a full stop the reason already has', () => {
    expect(
      latestRunSentence({
        state: 'failed',
        started_at: started,
        finished_at: null,
        error: 'robots.txt refused the crawl.',
      }),
    ).toBe('Latest crawl failed Nov 24, 2026, 7:21 AM UTC: robots.txt refused the crawl.');
  });

  it('says when a completed crawl finished and how long it took', () => {
    expect(
      latestRunSentence({
        state: 'completed',
        started_at: started,
        finished_at: started + 95_000,
        error: null,
      }),
    ).toBe('Latest crawl finished Nov 24, 2026, 7:22 AM UTC after 1m 35s.');
  });
});
