import type { Metadata } from 'next';
import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/surface';
import { can } from '@/lib/auth/permissions';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Performance · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SitePerformancePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [{ principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  return (
    <section aria-labelledby="performance-title">
      <h2 id="performance-title" className="mb-4 text-lg font-semibold text-zinc-900">
        Performance
      </h2>
      {site.performance_enabled ? (
        <p className="text-sm text-zinc-600">Field data for this site appears here after its daily sync.</p>
      ) : (
        <EmptyState
          title="The Performance app is off for this site"
          description="When it is on, Chrome's real-user Core Web Vitals for this site's origin are synced daily."
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
    </section>
  );
}
