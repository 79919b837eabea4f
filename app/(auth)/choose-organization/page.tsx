import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { CreateOrganizationForm } from '@/components/orgs/create-organization-form';
import { OrganizationPicker } from '@/components/orgs/organization-picker';
import { dashboardContext, isCompleteContext } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Choose an organization' };

/** Reached when the session has no usable active organization (e.g. the user was removed from it). */
export default async function ChooseOrganizationPage() {
  const context = await dashboardContext();
  if (isCompleteContext(context)) redirect('/sites');
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Choose an organization</h1>
      <p className="mt-2 text-sm text-zinc-600">
        Signed in as {context.user.email}. Your session has no active organization.
      </p>
      {context.organizations.length > 0 ? (
        <section aria-labelledby="your-orgs" className="mt-8">
          <h2 id="your-orgs" className="text-base font-semibold text-zinc-900">
            Your organizations
          </h2>
          <OrganizationPicker organizations={context.organizations} />
        </section>
      ) : null}
      <section aria-labelledby="new-org" className="mt-8">
        <h2 id="new-org" className="mb-3 text-base font-semibold text-zinc-900">
          Create a new one
        </h2>
        <CreateOrganizationForm />
      </section>
    </>
  );
}
