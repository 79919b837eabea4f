'use client';

import { Button } from '@/components/ui/button';
import { useOrganizationSwitch } from './use-organization-switch';

export function OrganizationPicker({
  organizations,
}: {
  organizations: Array<{ id: string; name: string }>;
}) {
  const { pendingId, error, switchTo } = useOrganizationSwitch('Could not open the organization.');
  return (
    <>
      <ul className="mt-3 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
        {organizations.map((org) => (
          <li key={org.id} className="flex items-center justify-between gap-3 px-4 py-3">
            <span className="text-sm font-medium text-zinc-900">{org.name}</span>
            <Button
              size="sm"
              pending={pendingId === org.id}
              disabled={pendingId !== null}
              onClick={() => switchTo(org.id, { replace: true })}
            >
              Open<span className="sr-only"> {org.name}</span>
            </Button>
          </li>
        ))}
      </ul>
      <p role="alert" className="mt-2 text-sm text-red-700 empty:hidden">
        {error}
      </p>
    </>
  );
}
