import type { Metadata } from 'next';
import { siteCrawlPlanNote } from '@/components/sites/apps';
import { SeoReport } from '@/components/sites/seo-report';
import { EmptyState } from '@/components/ui/surface';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `SEO · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteSeoPage({ params }: { params: Promise<{ id: string }> }) {
  const site = await siteForPage((await params).id);
  const note = siteCrawlPlanNote(site);
  return (
    <section aria-labelledby="seo-title">
      <h2 id="seo-title" className="mb-4 text-lg font-semibold text-zinc-900">
        SEO
      </h2>
      {site.seo_enabled && note ? (
        // SEO alone never crawls (spec: crawls come from Broken Links or Accessibility): say so
        // rather than wait for a report that cannot come.
        <EmptyState title="No crawl feeds the SEO checks" description={note} />
      ) : site.seo_enabled ? (
        <SeoReport siteId={site.id} />
      ) : (
        <p className="text-sm text-zinc-600">
          The SEO app is off for this site. Turn it on in the site settings.
        </p>
      )}
    </section>
  );
}
