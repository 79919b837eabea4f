import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { StatusPagesView } from '@/components/statuspages/status-pages-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Status pages' };

export default async function StatusPagesPage() {
  const { role } = await requireDashboard();
  // Owners and admins: a page may list any site's monitors (the API's 'publish' permission).
  if (!isAdminRole(role)) notFound();
  return (
    <>
      <PageHeader
        title="Status pages"
        description="Public pages that show your visitors the state of chosen uptime monitors: no sign-in, no script, no cookie."
      />
      <StatusPagesView />
    </>
  );
}
