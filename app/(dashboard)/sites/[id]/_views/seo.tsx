import { siteCrawlPlanNote } from '@/components/sites/apps';
import { SeoReport } from '@/components/sites/seo-report';
import { EmptyState } from '@/components/ui/surface';
import type { CrawlReport } from './report-page';

/** The SEO report reads itself in the browser (SeoReport), so its tab neither waits nor follows crawls. */
export const seoReport = {
  title: 'SEO',
  pastTitle: 'Past crawl: SEO',
  tab: 'seo',
  runView: '/seo',
  loading: 'Loading the SEO report',
  followsCrawl: false,
  off: (site) => {
    if (!site.seo_enabled) {
      return (
        <p className="text-sm text-zinc-600">
          The SEO app is off for this site. Turn it on in the site settings.
        </p>
      );
    }
    const note = siteCrawlPlanNote(site);
    // SEO alone never crawls (spec: crawls come from Broken Links or Accessibility): say so rather
    // than wait for a report that cannot come.
    return note ? <EmptyState title="No crawl feeds the SEO checks" description={note} /> : null;
  },
  Body: ({ siteId, runId }) => <SeoReport siteId={siteId} runId={runId} />,
} satisfies CrawlReport;
