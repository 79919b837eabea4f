import type { Metadata } from 'next';
import { AccountOrganizations } from '@/components/account/account-organizations';
import { ProfileForm } from '@/components/account/profile-form';
import { SessionsPanel } from '@/components/account/sessions-panel';
import { PageHeader, Section } from '@/components/ui/surface';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Account' };

export default async function AccountPage() {
  const { user, organizations, activeOrganization } = await requireDashboard();
  return (
    <>
      <PageHeader
        title="Account"
        description="Your profile, where you are signed in, and the organizations you belong to."
      />
      <div className="space-y-6">
        <Section id="profile" title="Profile">
          <ProfileForm email={user.email} name={user.name} />
        </Section>
        <SessionsPanel />
        <Section
          id="organizations"
          title="Organizations"
          description="Your role in each. Switching opens that organization's sites."
        >
          <AccountOrganizations organizations={organizations} activeId={activeOrganization.id} />
        </Section>
      </div>
    </>
  );
}
