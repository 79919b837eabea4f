import type { Metadata } from 'next';
import Link from 'next/link';
import { ReportSection } from '@/components/sites/report-section';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/surface';
import { can } from '@/lib/auth/permissions';
import type { SearchParams } from '@/lib/dashboard/crawl';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { BrokenTargetsSection } from '../_views/broken-targets';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Broken links · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteLinksPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [site, search, { principal }] = await Promise.all([
    siteForPage((await params).id),
    searchParams,
    requireDashboard(),
  ]);
  const on = site.scanner_enabled === 1;
  return (
    <ReportSection
      id="links-title"
      title="Broken links"
      siteId={on ? site.id : undefined}
      search={search}
      loading="Loading the broken links"
    >
      {on ? (
        <BrokenTargetsSection siteId={site.id} search={search} path={`/sites/${site.id}/links`} />
      ) : (
        <EmptyState
          title="The Broken links app is off for this site"
          description="When it is on, each crawl checks every link on the site's pages and lists the broken ones here, the most linked first."
          action={
            can(principal, 'manage') ? (
              <Link href={`/sites/${site.id}/settings`} className={buttonClass('primary')}>
                Turn it on in settings
              </Link>
            ) : (
              <p className="text-sm text-zinc-600">An owner or admin can turn it on in the site settings.</p>
            )
          }
        />
      )}
    </ReportSection>
  );
}
