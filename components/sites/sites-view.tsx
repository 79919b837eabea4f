'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { Quota, Site, SitesResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { Button } from '@/components/ui/button';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState, LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { formatCadence, formatDateTime, formatNumber } from '@/lib/format';
import { APPS, crawlsSite } from './apps';
import { RegisterSiteForm } from './register-site-form';

type SiteCrawls = SitesResponse['crawls'][number];

const anyRunning = (data: SitesResponse) => data.crawls.some((c) => c.lastCrawl?.state === 'running');

/** While a listed site's crawl runs, the list looks again this often, to show its result when it ends. */
const RUNNING_POLL_MS = 5_000;

export function SitesView({
  canRegister,
  notice,
  fieldDataConfigured,
}: {
  canRegister: boolean;
  /** What the action that led here did (a site deleted, an organization switched to), said where the focus lands. */
  notice?: string;
  /** The server has a CrUX API key: without one a site's Performance app is listed as inactive. */
  fieldDataConfigured: boolean;
}) {
  // Read again while a listed crawl runs, hidden or not, to show its result when it ends.
  const sites = useApi<SitesResponse>('/v1/sites', {
    refreshInterval: (data) => (data && anyRunning(data) ? RUNNING_POLL_MS : 0),
    refreshWhenHidden: true,
  });
  const registerSection = useRef<HTMLDivElement>(null);
  const noticeLine = useRef<HTMLParagraphElement>(null);
  // The line is the URL's (?deleted=, ?switched=): the next action (registering a site) dismisses
  // it, so it never stands above that action's own result or error.
  const [noticeShown, setNoticeShown] = useState(Boolean(notice));

  // Arriving here from deleting a site or switching organization: say so, where focus lands.
  useEffect(() => {
    if (notice) noticeLine.current?.focus();
  }, [notice]);

  // A member sees only the sites shared with them: the list says so, not "Registered sites".
  const listTitle = canRegister ? 'Registered sites' : 'Sites shared with you';

  const focusRegister = () => {
    const input = registerSection.current?.querySelector('input');
    input?.focus();
  };

  return (
    <div className="space-y-8">
      {notice && noticeShown ? (
        <p
          ref={noticeLine}
          role="status"
          tabIndex={-1}
          className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900 outline-none focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          {notice}
        </p>
      ) : null}
      <section aria-labelledby="sites-list-title">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <h2 id="sites-list-title" className="text-base font-semibold text-zinc-900">
            {listTitle}
          </h2>
          {sites.data ? <QuotaMeter quota={sites.data.quota} organizationWide={!canRegister} /> : null}
        </div>
        {sites.error ? (
          <LoadError title="Could not load sites" error={sites.error} onRetry={sites.mutate} />
        ) : !sites.data ? (
          <Loading label="Loading sites">
            <Skeleton className="h-32 w-full" />
          </Loading>
        ) : sites.data.sites.length === 0 ? (
          <EmptyState
            title={canRegister ? 'No sites yet' : 'No sites shared with you yet'}
            description={
              canRegister
                ? 'Register a site to start finding broken links, SEO issues and accessibility problems.'
                : `${organizationSites(sites.data.quota.count)} Ask an owner or admin for access to the ones you work on.`
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
          <SitesTable
            caption={listTitle}
            sites={sites.data.sites}
            crawls={sites.data.crawls}
            fieldDataConfigured={fieldDataConfigured}
          />
        )}
      </section>
      {canRegister ? (
        <div ref={registerSection}>
          <Section
            id="register-site"
            title="Register a site"
            description="The first crawl starts within a minute when Broken links or Accessibility is on; SEO checks run during those crawls."
          >
            <RegisterSiteForm
              onSubmitted={() => setNoticeShown(false)}
              onRegistered={() => void sites.mutate()}
              fieldDataConfigured={fieldDataConfigured}
            />
          </Section>
        </div>
      ) : null}
    </div>
  );
}

/** A member's list holds only the sites shared with them; the organization's count is said apart. */
function organizationSites(count: number): string {
  if (count === 0) return 'Your organization has no sites yet.';
  return `Your organization has ${count} ${count === 1 ? 'site' : 'sites'}; none is shared with you.`;
}

/**
 * The organization's site slots. `organizationWide`: said as the organization's, for a member,
 * whose list shows only the sites shared with them (and may be empty while slots are used).
 */
function QuotaMeter({ quota, organizationWide }: { quota: Quota; organizationWide: boolean }) {
  const full = quota.count >= quota.included;
  return (
    <p className="text-sm text-zinc-600">
      {organizationWide ? 'Your organization uses ' : null}
      <span className="font-medium text-zinc-900 tabular-nums">
        {quota.count} of {quota.included}
      </span>{' '}
      {organizationWide ? 'included sites' : 'included sites used'}
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

function SitesTable({
  caption,
  sites,
  crawls,
  fieldDataConfigured,
}: {
  caption: string;
  sites: Site[];
  crawls: SiteCrawls[];
  fieldDataConfigured: boolean;
}) {
  const bySite = new Map(crawls.map((c) => [c.siteId, c]));
  const crawlsOf = (site: Site) => bySite.get(site.id);
  return (
    <ResponsiveTable
      caption={caption}
      rows={sites}
      rowKey={(site) => site.id}
      title={{
        key: 'site',
        header: 'Site',
        cell: (site) => (
          <>
            <Link href={`/sites/${site.id}`} className="font-medium text-accent-700 hover:underline">
              {site.hostname}
            </Link>
            <div className="mt-0.5 max-w-xs truncate text-xs text-zinc-600">{site.root_url}</div>
          </>
        ),
      }}
      columns={[
        {
          key: 'last',
          header: 'Last crawl',
          className: 'whitespace-nowrap',
          cell: (site) => <LastCrawl crawl={crawlsOf(site)?.lastCrawl ?? null} />,
        },
        {
          key: 'broken',
          header: 'Broken targets',
          numeric: true,
          className: 'whitespace-nowrap',
          cell: (site) => {
            const c = crawlsOf(site);
            if (site.scanner_enabled !== 1) return <AppOff />;
            if (!c?.latest) return <NoResult site={site} />;
            return (
              <>
                {formatNumber(c.latest.brokenCount)}
                <Direction
                  now={c.latest.brokenCount}
                  before={c.previous?.brokenCount ?? null}
                  better="lower"
                  what="broken targets"
                />
              </>
            );
          },
        },
        {
          key: 'seo',
          header: 'SEO score',
          numeric: true,
          className: 'whitespace-nowrap',
          cell: (site) => {
            const c = crawlsOf(site);
            if (site.seo_enabled !== 1) return <AppOff />;
            if (c?.latest?.seoScore == null) return <NoResult site={site} />;
            return (
              <>
                {c.latest.seoScore}
                <Direction
                  now={c.latest.seoScore}
                  before={c.previous?.seoScore ?? null}
                  better="higher"
                  what="points"
                />
              </>
            );
          },
        },
        {
          key: 'next',
          header: 'Next crawl',
          className: 'whitespace-nowrap',
          cell: (site) =>
            site.enabled ? (
              <>
                {formatDateTime(site.next_run_at)}
                <div className="text-xs text-zinc-600">{formatCadence(site.cadence_minutes)}</div>
              </>
            ) : (
              <span className="text-zinc-600">Not scheduled</span>
            ),
        },
        {
          key: 'apps',
          header: 'Apps',
          cell: (site) => (
            <ul className="flex min-w-32 flex-wrap gap-1" aria-label={`Apps on for ${site.hostname}`}>
              {APPS.filter((app) => site[app.flag] === 1).map((app) => (
                <li key={app.key}>
                  {app.key === 'performanceEnabled' && !fieldDataConfigured ? (
                    // On, as the spec's default has it, but nothing syncs without a CrUX key.
                    <Badge tone="warning">{app.label} (inactive: no CrUX key)</Badge>
                  ) : (
                    <Badge>{app.label}</Badge>
                  )}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}

/** The latest crawl of any origin: when, and how it went unless it completed. */
function LastCrawl({ crawl }: { crawl: SiteCrawls['lastCrawl'] }) {
  if (!crawl) return <span className="text-zinc-600">Never</span>;
  return (
    <>
      {formatDateTime(crawl.startedAt)}
      {crawl.state === 'running' ? (
        <div className="mt-0.5">
          <Badge tone="info">Crawling now</Badge>
        </div>
      ) : crawl.state === 'failed' ? (
        <div className="mt-0.5">
          <Badge tone="danger">Failed</Badge>
        </div>
      ) : null}
    </>
  );
}

const AppOff = () => <span className="text-zinc-600">App off</span>;
/** No figure yet: a site that no app crawls says so, otherwise it waits for its first crawl. */
const NoResult = ({ site }: { site: Site }) =>
  crawlsSite({ scanner: site.scanner_enabled === 1, a11y: site.a11y_enabled === 1 }) ? (
    <span className="text-zinc-600">
      <span aria-hidden="true">—</span>
      <span className="sr-only">No completed crawl yet</span>
    </span>
  ) : (
    <span className="text-zinc-600">Not crawled</span>
  );

/**
 * Which way a figure moved since the previous completed crawl: an arrow for the eye, the change in
 * words for everyone (the arrow alone would say nothing to a screen reader, or to someone who cannot
 * tell the colours apart). Nothing when there is no previous crawl to compare with.
 */
export function Direction({
  now,
  before,
  better,
  what,
}: {
  now: number;
  before: number | null;
  better: 'higher' | 'lower';
  what: string;
}) {
  if (before === null) return null;
  const change = now - before;
  if (change === 0) {
    return (
      <span className="ml-1.5 text-xs text-zinc-600">
        <span aria-hidden="true">→</span>
        <span className="sr-only">, unchanged since the previous crawl</span>
      </span>
    );
  }
  const improved = better === 'higher' ? change > 0 : change < 0;
  const amount = formatNumber(Math.abs(change));
  return (
    <span className={`ml-1.5 text-xs font-medium ${improved ? 'text-green-800' : 'text-red-700'}`}>
      <span aria-hidden="true">
        {change > 0 ? '↑' : '↓'}
        {amount}
      </span>
      <span className="sr-only">
        , {change > 0 ? 'up' : 'down'} {amount} {what} since the previous crawl (
        {improved ? 'better' : 'worse'})
      </span>
    </span>
  );
}
