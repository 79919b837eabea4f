/** The five per-site apps: request field, Site record flag, and creation default (spec). */
export const APPS = [
  {
    key: 'scannerEnabled',
    flag: 'scanner_enabled',
    label: 'Broken links',
    description: 'Crawls the site and reports dead links.',
    defaultOn: true,
  },
  {
    key: 'a11yEnabled',
    flag: 'a11y_enabled',
    label: 'Accessibility',
    description: 'Rendered WCAG scan with a score and an AA verdict.',
    defaultOn: false,
  },
  {
    key: 'seoEnabled',
    flag: 'seo_enabled',
    label: 'SEO',
    description: 'On-page checks of the pages a crawl fetches.',
    defaultOn: true,
  },
  {
    key: 'performanceEnabled',
    flag: 'performance_enabled',
    label: 'Performance',
    description: 'Real-user Core Web Vitals, synced daily.',
    defaultOn: true,
  },
  {
    key: 'uptimeEnabled',
    flag: 'uptime_enabled',
    label: 'Uptime',
    description: 'Probes from four regions once a monitor exists.',
    defaultOn: true,
  },
] as const;

/**
 * The Performance app beside its switch and badge when the server has no CrUX API key: on (the
 * spec's default) but inactive, and who can change that.
 */
export const PERFORMANCE_INACTIVE =
  'Inactive on this server: it has no Chrome UX Report API key (CRUX_API_KEY), so nothing is synced until whoever runs it sets one.';

/** Cadences offered in forms; the API's floor is daily (1440 minutes). */
export const CADENCE_CHOICES = [
  { minutes: 1440, label: 'Daily' },
  { minutes: 4320, label: 'Every 3 days' },
  { minutes: 10080, label: 'Weekly' },
  { minutes: 20160, label: 'Every 2 weeks' },
  { minutes: 43200, label: 'Monthly (30 days)' },
] as const;

export type App = (typeof APPS)[number];
export type AppFlags = Record<App['flag'], 0 | 1>;

/**
 * What crawls a site: Broken links or Accessibility (spec: a crawl is triggered and scheduled only
 * with one of them on). SEO checks read the pages those crawls fetch and never crawl by themselves.
 */
export function crawlsSite(on: { scanner: boolean; a11y: boolean }): boolean {
  return on.scanner || on.a11y;
}

/**
 * What a combination of switches does about crawling, in one sentence for the forms and the site
 * page; null when it needs no comment (a crawl app is on).
 */
export function crawlPlanNote(on: { scanner: boolean; a11y: boolean; seo: boolean }): string | null {
  if (crawlsSite(on)) return null;
  return on.seo
    ? 'SEO alone never crawls: its checks read the pages a Broken links or Accessibility crawl fetches. With both off, this site is not crawled and has no SEO results; turn one of them on too.'
    : 'With Broken links and Accessibility off, this site is not crawled.';
}

/** The same for a stored site's flags. */
export function siteCrawlPlanNote(site: Pick<AppFlags, 'scanner_enabled' | 'a11y_enabled' | 'seo_enabled'>) {
  return crawlPlanNote({
    scanner: site.scanner_enabled === 1,
    a11y: site.a11y_enabled === 1,
    seo: site.seo_enabled === 1,
  });
}
