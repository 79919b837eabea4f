import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { runViewHref } from '@/components/sites/crawl-hrefs';
import { CutShortNotice } from '@/components/sites/report-parts';
import { Badge } from '@/components/ui/surface';
import { TabNav } from '@/components/ui/tab-nav';
import { runOfSite } from '@/lib/dashboard/crawl';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { formatDateTime, formatDuration, formatNumber } from '@/lib/format';

const stateTone = { running: 'info', completed: 'success', failed: 'danger' } as const;

/** One past crawl: what it was, then its reports as sub-pages (broken links, SEO, pages). */
export default async function RunLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string; runId: string }>;
}) {
  const { id, runId } = await params;
  const [site, { db, principal }] = await Promise.all([siteForPage(id), requireDashboard()]);
  const run = await runOfSite(db, principal, { siteId: site.id, runId });
  if (run?.kind !== 'crawl') notFound();
  const base = runViewHref(site.id, run.id);
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link
          href={`/sites/${site.id}/history`}
          className="text-zinc-600 hover:text-zinc-900 hover:underline"
        >
          ← History
        </Link>
      </p>
      <div className="space-y-2">
        <h2 className="text-lg font-semibold text-zinc-900">Crawl of {formatDateTime(run.started_at)}</h2>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-700">
          <Badge tone={stateTone[run.state]}>{run.state}</Badge>
          <span>
            {run.finished_at ? `took ${formatDuration(run.finished_at - run.started_at)}` : 'still running'}
          </span>
          <span>{formatNumber(run.pages_crawled)} pages crawled</span>
          <span>{formatNumber(run.links_checked)} URLs checked</span>
        </p>
        {run.error ? <p className="text-sm text-red-800">{run.error}</p> : null}
        <CutShortNotice run={run} />
      </div>
      <TabNav
        label="Reports of this crawl"
        items={[
          { href: base, label: 'Broken links', nested: false },
          { href: `${base}/seo`, label: 'SEO' },
          { href: `${base}/pages`, label: 'Pages' },
        ]}
      />
      {children}
    </div>
  );
}
