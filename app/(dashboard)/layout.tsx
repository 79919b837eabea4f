import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { ApiCache } from '@/components/api/api-cache';
import { Logo } from '@/components/brand';
import { AccountLink } from '@/components/shell/account-link';
import { DashboardNav, type NavItem } from '@/components/shell/dashboard-nav';
import { OrgSwitcher } from '@/components/shell/org-switcher';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { isAdminRole } from '@/lib/auth/principal';
import { dashboardContext, isCompleteContext } from '@/lib/dashboard/session';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const context = await dashboardContext();
  if (!isCompleteContext(context)) redirect('/choose-organization');
  const admin = isAdminRole(context.role);
  const nav: NavItem[] = [
    { href: '/sites', label: 'Sites' },
    ...(admin
      ? [
          { href: '/status-pages', label: 'Status pages' },
          { href: '/organization', label: 'Organization' },
          { href: '/members', label: 'Members' },
          { href: '/keys', label: 'API keys' },
          { href: '/notifications', label: 'Notifications' },
          { href: '/billing', label: 'Billing' },
        ]
      : []),
  ];
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
          <Logo href="/sites" />
          {/* Below 640 px the organization's name needs the room more than the separator does. */}
          <span aria-hidden="true" className="hidden text-zinc-300 sm:inline">
            /
          </span>
          <OrgSwitcher organizations={context.organizations} activeId={context.activeOrganization.id} />
          <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
            <AccountLink label={context.user.name || context.user.email} />
            <span className="hidden rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 capitalize sm:inline">
              {context.role}
            </span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row md:gap-10 md:py-10">
        <DashboardNav items={nav} />
        {/* Keyed by the organization: switching one refreshes the server render, and client views that
            hold the old organization's data (the sites list's fetched rows, the read cache) must start
            over, not keep it. */}
        <main
          key={context.activeOrganization.id}
          id="main"
          tabIndex={-1}
          className="min-w-0 flex-1 outline-none"
        >
          <ApiCache>{children}</ApiCache>
        </main>
      </div>
    </div>
  );
}
