import { TabNav } from '@/components/ui/tab-nav';

/**
 * Sub-pages of a site, as a navigation bar styled like tabs (each is its own URL). A tab stays
 * current on the pages below it (an uptime monitor's page under Uptime).
 */
export function SiteTabs({
  siteId,
  showSettings,
  showUptime = false,
}: {
  siteId: string;
  showSettings: boolean;
  /** The Uptime tab shows while the site's Uptime app is on. */
  showUptime?: boolean;
}) {
  const base = `/sites/${siteId}`;
  const tabs = [
    { href: base, label: 'Overview' },
    { href: `${base}/links`, label: 'Broken links' },
    { href: `${base}/pages`, label: 'Pages' },
    { href: `${base}/redirects`, label: 'Redirects' },
    { href: `${base}/seo`, label: 'SEO' },
    { href: `${base}/accessibility`, label: 'Accessibility' },
    { href: `${base}/performance`, label: 'Performance' },
    { href: `${base}/search`, label: 'Search' },
    ...(showUptime ? [{ href: `${base}/uptime`, label: 'Uptime' }] : []),
    { href: `${base}/history`, label: 'History' },
    ...(showSettings ? [{ href: `${base}/settings`, label: 'Settings' }] : []),
  ];
  return <TabNav label="Site sections" items={tabs} className="mb-6" compact />;
}
