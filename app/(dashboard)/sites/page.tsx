import type { Metadata } from 'next';
import { SitesView } from '@/components/sites/sites-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Sites' };

export default async function SitesPage() {
  const { role, activeOrganization } = await requireDashboard();
  return (
    <>
      <PageHeader title="Sites" description={`Websites monitored by ${activeOrganization.name}.`} />
      <SitesView canRegister={isAdminRole(role)} />
    </>
  );
}
