import type { Metadata } from 'next';
import { ReportSection } from '@/components/sites/report-section';
import type { SearchParams } from '@/lib/dashboard/crawl';
import { siteForPage } from '@/lib/dashboard/site';
import { PagesSection } from '../../../_views/pages';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Past crawl: pages · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function RunPagesPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; runId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ id, runId }, search] = await Promise.all([params, searchParams]);
  const site = await siteForPage(id);
  return (
    <ReportSection
      id="run-pages-title"
      title="Pages"
      level={3}
      search={search}
      loading="Loading the crawled URLs"
    >
      <PagesSection
        siteId={site.id}
        runId={runId}
        search={search}
        path={`/sites/${site.id}/history/${runId}/pages`}
      />
    </ReportSection>
  );
}
