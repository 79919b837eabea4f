import type { Metadata } from 'next';
import { LimitRequestPanel } from '@/components/orgs/limit-request-form';
import { PageHeader, Section } from '@/components/ui/surface';

export const metadata: Metadata = { title: 'Organization limit' };

export default function LimitRequestPage() {
  return (
    <>
      <PageHeader
        title="Organization limit"
        description="Each account may belong to a limited number of organizations. Ask for more here."
      />
      <Section title="Your organizations">
        <LimitRequestPanel />
      </Section>
    </>
  );
}
