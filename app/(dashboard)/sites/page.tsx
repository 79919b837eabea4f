import type { Metadata } from 'next';
import { SitesView } from '@/components/sites/sites-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { fieldDataConfigured } from '@/lib/dashboard/fielddata';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Sites' };

type Arrival = { deleted?: string; switched?: string; created?: string };

export default async function SitesPage({ searchParams }: { searchParams: Promise<Arrival> }) {
  const { role, activeOrganization } = await requireDashboard();
  // Set by the action that led here (deleting a site, switching or creating an organization), so
  // the list can say what happened where the focus lands: the pressed control is gone with the page.
  const { deleted, switched, created } = await searchParams;
  const name = activeOrganization.name;
  const notice =
    typeof deleted === 'string'
      ? `Deleted ${deleted}: its runs and reports are gone, and its slot is free.`
      : created !== undefined
        ? `Created ${name}: register its first site below.`
        : switched !== undefined
          ? `Switched to ${name}.`
          : undefined;
  return (
    <>
      <PageHeader
        title="Sites"
        // Not the organization's name, as on the notifications page: the default one is "<name>'s
        // sites", so "Websites monitored by dev's sites." read oddly.
        description="Websites this organization monitors."
      />
      <SitesView
        canRegister={isAdminRole(role)}
        fieldDataConfigured={fieldDataConfigured()}
        notice={notice}
      />
    </>
  );
}
