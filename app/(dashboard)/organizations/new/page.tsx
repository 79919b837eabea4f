import type { Metadata } from 'next';
import { CreateOrganizationForm } from '@/components/orgs/create-organization-form';
import { PageHeader, Section } from '@/components/ui/surface';

export const metadata: Metadata = { title: 'Create organization' };

export default function NewOrganizationPage() {
  return (
    <>
      <PageHeader
        title="Create organization"
        description="A separate workspace with its own sites, members, keys and billing."
      />
      <Section title="Organization details" className="max-w-xl">
        <CreateOrganizationForm />
      </Section>
    </>
  );
}
