import type { Metadata } from 'next';
import { MaintenanceWindows } from '@/components/uptime/maintenance-windows';
import { MonitorList } from '@/components/uptime/monitor-list';
import { ProbePlaces } from '@/components/uptime/places';
import { monitorLabel } from '@/components/uptime/words';
import { can } from '@/lib/auth/permissions';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { monitorOverviewsForPage, probeLocations } from '@/lib/dashboard/uptime';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Uptime · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteUptimePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ deleted?: string | string[] }>;
}) {
  const [{ id }, { deleted }] = await Promise.all([params, searchParams]);
  const [{ principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  // Read here, not by the list asking the API for each monitor's live state and metrics.
  const monitors = await monitorOverviewsForPage(site.id);
  return (
    <section aria-labelledby="uptime-title">
      <h2 id="uptime-title" className="mb-4 text-lg font-semibold text-zinc-900">
        Uptime
      </h2>
      <ProbePlaces probedFrom={probeLocations()}>
        <MonitorList
          siteId={site.id}
          monitors={monitors}
          readAt={Date.now()}
          canManage={can(principal, 'manage')}
          appOn={site.uptime_enabled === 1}
          deleted={typeof deleted === 'string' ? deleted.slice(0, 2048) : undefined}
        />
      </ProbePlaces>
      <div className="mt-8">
        <MaintenanceWindows
          siteId={site.id}
          monitors={monitors.map(({ monitor }) => ({ id: monitor.id, label: monitorLabel(monitor) }))}
          canManage={can(principal, 'manage')}
        />
      </div>
    </section>
  );
}
