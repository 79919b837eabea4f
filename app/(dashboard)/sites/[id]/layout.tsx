import Link from 'next/link';
import type { ReactNode } from 'react';
import { SiteTabs } from '@/components/sites/site-tabs';
import { ExternalLink } from '@/components/ui/external-link';
import { isPrivileged } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';

export default async function SiteLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const [{ principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  return (
    <>
      <div className="mb-4">
        <Link href="/sites" className="text-sm text-zinc-600 hover:text-zinc-900 hover:underline">
          ← All sites
        </Link>
      </div>
      <div className="mb-4">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{site.hostname}</h1>
        <p className="mt-1 text-sm text-zinc-600">
          <ExternalLink href={site.root_url} className="hover:underline">
            {site.root_url}
          </ExternalLink>
        </p>
      </div>
      <SiteTabs
        siteId={site.id}
        showSettings={isPrivileged(principal)}
        showUptime={site.uptime_enabled === 1}
      />
      {children}
    </>
  );
}
