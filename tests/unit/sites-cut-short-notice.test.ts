import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CutShortNotice } from '@/components/sites/report-parts';

/*
 * Issue 10 item 9: the dashboard says when a crawl's result is partial, and why, wherever it shows
 * the run (site overview, broken links, SEO report), and says nothing for a complete run.
 */

describe('the cut-short notice', () => {
  it('names every limit the run hit in a status region screen readers announce', () => {
    const html = renderToStaticMarkup(
      createElement(CutShortNotice, {
        run: {
          cut_short: 1,
          limits_hit: [
            {
              limit: 'max-pages',
              detail: "The crawl stopped after 50 pages (the site's maxPages (50) was reached).",
            },
            {
              limit: 'external-checks',
              detail: '4 external links were checked; further external links were not.',
            },
          ],
        },
      }),
    );
    expect(html).toMatch(/^<div role="status"/);
    expect(html).toContain('This crawl&#x27;s result is partial');
    expect(html).toContain(
      '<li>The crawl stopped after 50 pages (the site&#x27;s maxPages (50) was reached).</li>',
    );
    expect(html).toContain('<li>4 external links were checked; further external links were not.</li>');
  });

  it('renders nothing for a complete run', () => {
    expect(
      renderToStaticMarkup(createElement(CutShortNotice, { run: { cut_short: 0, limits_hit: [] } })),
    ).toBe('');
  });
});
