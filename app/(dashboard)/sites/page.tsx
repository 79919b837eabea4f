import type { Metadata } from 'next';
import { SitesView } from '@/components/sites/sites-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Sites' };

export default async function SitesPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const { role } = await requireDashboard();
  // Set by the settings page after deleting a site, so the list can say so where focus lands.
  const { deleted } = await searchParams;
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
        deleted={typeof deleted === 'string' ? deleted : undefined}
      />
    </>
  );
}
