'use client';

import Link from 'next/link';
import { useRef } from 'react';
import { useResource } from '@/components/api/client';
import type { Quota, Site, SitesResponse } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { formatCadence, formatDateTime } from '@/components/ui/format';
import { Badge, EmptyState, LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { APPS } from './apps';
import { RegisterSiteForm } from './register-site-form';

export function SitesView({ canRegister }: { canRegister: boolean }) {
  const sites = useResource<SitesResponse>('/v1/sites');
  const registerSection = useRef<HTMLDivElement>(null);

  const focusRegister = () => {
    const input = registerSection.current?.querySelector('input');
    input?.focus();
  };

  return (
    <div className="space-y-8">
      <section aria-labelledby="sites-list-title">
        <div className="mb-3 flex items-end justify-between gap-3">
          <h2 id="sites-list-title" className="text-base font-semibold text-zinc-900">
            Registered sites
          </h2>
          {sites.data ? <QuotaMeter quota={sites.data.quota} /> : null}
        </div>
        {sites.error ? (
          <LoadError title="Could not load sites" error={sites.error} onRetry={sites.reload} />
        ) : !sites.data ? (
          <Loading label="Loading sites">
            <Skeleton className="h-32 w-full" />
          </Loading>
        ) : sites.data.sites.length === 0 ? (
          <EmptyState
            title="No sites yet"
            description={
              canRegister
                ? 'Register a site to start finding broken links, SEO issues and accessibility problems.'
                : 'No sites have been shared with you yet. Ask an owner or admin for access.'
            }
            action={
              canRegister ? (
                <Button variant="primary" onClick={focusRegister}>
                  Register your first site
                </Button>
              ) : null
            }
          />
        ) : (
          <SitesTable sites={sites.data.sites} />
        )}
      </section>
      {canRegister ? (
        <div ref={registerSection}>
          <Section
            id="register-site"
            title="Register a site"
            description="The first crawl starts right away when Broken links, Accessibility or SEO is on."
          >
            <RegisterSiteForm onRegistered={() => void sites.reload()} />
          </Section>
        </div>
      ) : null}
    </div>
  );
}

function QuotaMeter({ quota }: { quota: Quota }) {
  const full = quota.count >= quota.included;
  return (
    <p className="text-sm text-zinc-600">
      <span className="font-medium text-zinc-900 tabular-nums">
        {quota.count} of {quota.included}
      </span>{' '}
      included sites used
      {full ? (
        <span className="ml-2">
          <Badge tone={quota.overageEnabled ? 'info' : 'warning'}>
            {quota.overageEnabled ? 'Overage on' : 'Limit reached'}
          </Badge>
        </span>
      ) : null}
    </p>
  );
}

function SitesTable({ sites }: { sites: Site[] }) {
  return (
    <Table caption="Registered sites">
      <thead>
        <tr>
          <Th>Site</Th>
          <Th>Apps</Th>
          <Th>Cadence</Th>
          <Th>Last crawl</Th>
          <Th>Next crawl</Th>
        </tr>
      </thead>
      <tbody>
        {sites.map((site) => (
          <tr key={site.id} className="hover:bg-zinc-50">
            <Td>
              <Link href={`/sites/${site.id}`} className="font-medium text-accent-700 hover:underline">
                {site.hostname}
              </Link>
              <div className="mt-0.5 max-w-xs truncate text-xs text-zinc-600">{site.root_url}</div>
            </Td>
            <Td>
              <ul className="flex flex-wrap gap-1" aria-label={`Apps on for ${site.hostname}`}>
                {APPS.filter((app) => site[app.flag] === 1).map((app) => (
                  <li key={app.key}>
                    <Badge>{app.label}</Badge>
                  </li>
                ))}
              </ul>
            </Td>
            <Td className="whitespace-nowrap">{formatCadence(site.cadence_minutes)}</Td>
            <Td className="whitespace-nowrap">
              {site.last_run_at ? formatDateTime(site.last_run_at) : 'Never'}
            </Td>
            <Td className="whitespace-nowrap">
              {site.enabled ? (
                formatDateTime(site.next_run_at)
              ) : (
                <span className="text-zinc-600">Not scheduled</span>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
