import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { KeysView } from '@/components/keys/keys-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'API keys' };

export default async function KeysPage() {
  const { role, activeOrganization } = await requireDashboard();
  if (!isAdminRole(role)) notFound();
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Keys act for ${activeOrganization.name} with management rights within their site scope.`}
      />
      <KeysView />
    </>
  );
}
