import type { Metadata } from 'next';
import { ReportSection } from '@/components/sites/report-section';
import type { SearchParams } from '@/lib/dashboard/crawl';
import { siteForPage } from '@/lib/dashboard/site';
import { BrokenTargetsSection } from '../../_views/broken-targets';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Past crawl: broken links · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function RunLinksPage({
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
      id="run-links-title"
      title="Broken links"
      level={3}
      search={search}
      loading="Loading the broken links"
    >
      <BrokenTargetsSection
        siteId={site.id}
        runId={runId}
        search={search}
        path={`/sites/${site.id}/history/${runId}`}
      />
    </ReportSection>
  );
}
