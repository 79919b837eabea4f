import type { Metadata } from 'next';
import { ReportSection } from '@/components/sites/report-section';
import type { SearchParams } from '@/lib/dashboard/crawl';
import { siteForPage } from '@/lib/dashboard/site';
import { PagesSection } from '../_views/pages';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Pages · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SitePagesPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [site, search] = await Promise.all([siteForPage((await params).id), searchParams]);
  return (
    <ReportSection
      id="pages-title"
      title="Pages"
      siteId={site.id}
      search={search}
      loading="Loading the crawled URLs"
    >
      <PagesSection siteId={site.id} search={search} path={`/sites/${site.id}/pages`} />
    </ReportSection>
  );
}
