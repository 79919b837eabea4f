import type { Metadata } from 'next';
import { BrokenLinksReport } from '@/components/sites/broken-links-report';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Broken links · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteLinksPage({ params }: { params: Promise<{ id: string }> }) {
  const site = await siteForPage((await params).id);
  return (
    <section aria-labelledby="links-title">
      <h2 id="links-title" className="mb-4 text-lg font-semibold text-zinc-900">
        Broken links
      </h2>
      <BrokenLinksReport siteId={site.id} hostname={site.hostname} />
    </section>
  );
}
