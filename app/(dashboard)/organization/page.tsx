import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { OrganizationSettings } from '@/components/orgs/organization-settings';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { getOrganization } from '@/lib/dashboard/organization';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Organization' };

/** The organization's name and logo, which brand its reports and mails: owners and admins change them. */
export default async function OrganizationPage() {
  const { db, role, activeOrganization } = await requireDashboard();
  if (!isAdminRole(role)) notFound();
  const organization = await getOrganization(db, activeOrganization.id);
  return (
    <>
      <PageHeader
        title="Organization"
        description="The name and logo your stakeholders see on the monthly reports and in the mails."
      />
      <OrganizationSettings organization={organization} />
    </>
  );
}
