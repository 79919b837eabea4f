import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { MembersView } from '@/components/members/members-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Members' };

export default async function MembersPage() {
  const { user, role, activeOrganization } = await requireDashboard();
  if (!isAdminRole(role)) notFound();
  return (
    <>
      <PageHeader title="Members" description={`People with access to ${activeOrganization.name}.`} />
      <MembersView currentUserId={user.id} currentRole={role} />
    </>
  );
}
