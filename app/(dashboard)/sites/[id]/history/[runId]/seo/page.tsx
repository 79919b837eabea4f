import type { Metadata } from 'next';
import { SeoReport } from '@/components/sites/seo-report';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Past crawl: SEO · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function RunSeoPage({ params }: { params: Promise<{ id: string; runId: string }> }) {
  const { id, runId } = await params;
  const site = await siteForPage(id);
  return (
    <section aria-labelledby="run-seo-title" className="space-y-4">
      <h3 id="run-seo-title" className="text-base font-semibold text-zinc-900">
        SEO
      </h3>
      <SeoReport siteId={site.id} runId={runId} />
    </section>
  );
}
