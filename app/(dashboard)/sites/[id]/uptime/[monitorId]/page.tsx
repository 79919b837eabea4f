import type { Metadata } from 'next';
import { MonitorView } from '@/components/uptime/monitor-view';
import { ProbePlaces } from '@/components/uptime/places';
import { can } from '@/lib/auth/permissions';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { monitorForPage, monitorsPerSite, probeLocations } from '@/lib/dashboard/uptime';

type Params = Promise<{ id: string; monitorId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { id, monitorId } = await params;
  const [site, monitor] = await Promise.all([siteForPage(id), monitorForPage(id, monitorId)]);
  return { title: `${monitor.name ?? monitor.url} · Uptime · ${site.hostname}` };
}

export default async function UptimeMonitorPage({ params }: { params: Params }) {
  const { id, monitorId } = await params;
  const [{ principal }, site, monitor] = await Promise.all([
    requireDashboard(),
    siteForPage(id),
    monitorForPage(id, monitorId),
  ]);
  return (
    <ProbePlaces probedFrom={probeLocations()}>
      <MonitorView
        siteId={site.id}
        monitorId={monitor.id}
        canManage={can(principal, 'manage')}
        monitorsPerSite={monitorsPerSite()}
      />
    </ProbePlaces>
  );
}
