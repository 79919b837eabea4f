import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AllowancePauses } from '@/components/billing/billing-view';

/*
 * The billing page's "Paused at allowance" notice: apps paused on a site for the month and uptime
 * monitors held past the organization's pooled allowance (GET /v1/billing `monitorsHeld`).
 */

const pausedCrawl = {
  siteId: '00000000-0000-4000-8000-000000000001',
  hostname: 'busy.example.com',
  app: 'crawl' as const,
  pausedAt: Date.UTC(2026, 10, 20, 9, 0),
};
const render = (billing: Parameters<typeof AllowancePauses>[0]['billing']) =>
  renderToStaticMarkup(createElement(AllowancePauses, { billing }));

describe('the allowance pauses on the billing page', () => {
  it('lists held monitors beside the paused apps, and says what frees them', () => {
    const html = render({ pausedSites: [pausedCrawl], monitorsHeld: 2 });
    expect(html).toContain('Paused at allowance');
    expect(html).toContain('busy.example.com: crawling paused since');
    expect(html).toContain('2 uptime monitors held past the organization&#x27;s monitor allowance');
    expect(html).toContain('Turn overage on to resume them, or wait for next month');
    expect(html).toContain('A held monitor also probes again when an older one is deleted or a site added');
  });

  it('shows held monitors alone, without promising that next month frees them', () => {
    const html = render({ pausedSites: [], monitorsHeld: 1 });
    expect(html).toContain('1 uptime monitor held');
    expect(html).toContain('Turn overage on to resume it');
    expect(html).not.toContain('next month');
  });

  it('says nothing when nothing is paused or held', () => {
    expect(render({ pausedSites: [], monitorsHeld: 0 })).toBe('');
  });
});
