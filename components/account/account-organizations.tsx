'use client';

import Link from 'next/link';
import { useOrganizationSwitch } from '@/components/orgs/use-organization-switch';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState } from '@/components/ui/surface';
import type { OrganizationSummary } from '@/lib/dashboard/session';

/** The organizations the user belongs to, their role in each, and a switch to any other one. */
export function AccountOrganizations({
  organizations,
  activeId,
}: {
  organizations: OrganizationSummary[];
  activeId: string;
}) {
  const { pendingId, error, switchTo } = useOrganizationSwitch();
  if (organizations.length === 0) {
    return (
      <EmptyState
        title="No organizations"
        description="You do not belong to any organization."
        action={<Link href="/organizations/new">Create organization</Link>}
      />
    );
  }
  return (
    <>
      <ul className="divide-y divide-zinc-200">
        {organizations.map((org) => {
          const active = org.id === activeId;
          return (
            <li
              key={org.id}
              aria-current={active ? 'true' : undefined}
              className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0"
            >
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <span className="truncate text-sm font-medium text-zinc-900">{org.name}</span>
                <Badge>
                  <span className="sr-only">Your role: </span>
                  <span className="capitalize">{org.role}</span>
                </Badge>
              </div>
              {active ? (
                <span className="text-sm text-zinc-600">Current organization</span>
              ) : (
                <Button
                  size="sm"
                  pending={pendingId === org.id}
                  disabled={pendingId !== null && pendingId !== org.id}
                  onClick={() => switchTo(org.id)}
                >
                  Switch<span className="sr-only"> to {org.name}</span>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <p role="alert" className="mt-2 text-sm text-red-700 empty:hidden">
        {error}
      </p>
      <p className="mt-4 text-sm">
        <Link href="/organizations/new" className="text-accent-700 underline hover:text-accent-800">
          Create organization
        </Link>
      </p>
    </>
  );
}
