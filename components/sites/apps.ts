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
    description: 'On-page checks extracted during the crawl.',
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

/** Cadences offered in forms; the API's floor is daily (1440 minutes). */
export const CADENCE_CHOICES = [
  { minutes: 1440, label: 'Daily' },
  { minutes: 4320, label: 'Every 3 days' },
  { minutes: 10080, label: 'Weekly' },
  { minutes: 20160, label: 'Every 2 weeks' },
  { minutes: 43200, label: 'Monthly (30 days)' },
] as const;
