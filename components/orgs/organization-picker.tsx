'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { Button } from '@/components/ui/button';

export function OrganizationPicker({
  organizations,
}: {
  organizations: Array<{ id: string; name: string }>;
}) {
  const router = useRouter();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
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
              onClick={async () => {
                setPendingId(org.id);
                setError(null);
                try {
                  await unwrap(authClient.organization.setActive({ organizationId: org.id }));
                  router.replace('/sites');
                  router.refresh();
                } catch (e) {
                  setError(failureMessage(e, 'Could not open the organization.'));
                  setPendingId(null);
                }
              }}
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
