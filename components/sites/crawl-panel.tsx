'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { RenderProgress } from '@/components/a11y/a11y-progress';
import { failureMessage, requestJson } from '@/components/api/client';
import type { CrawlTriggerResponse, LiveCrawlState, Run, SiteStatus } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { Alert, Badge, LoadError, Section, Skeleton, Stat } from '@/components/ui/surface';
import { formatDateTime, formatDuration, formatNumber } from '@/lib/format';
import { crawlsSite, siteCrawlPlanNote } from './apps';
import { crawlProgress } from './crawl-progress';
import { CutShortNotice } from './report-parts';
import { useSiteStatus } from './use-site-status';

/**
 * Live crawl progress and the "Crawl now" action. Follows any crawl of the site however it started
 * (the schedule, the API, this button) and the accessibility pass chained to it (useSiteStatus), and
 * refreshes the server-rendered run history when one ends.
 */
export function CrawlPanel({
  siteId,
  canCrawl,
  canManage,
}: {
  siteId: string;
  canCrawl: boolean;
  canManage: boolean;
}) {
  const router = useRouter();
  const status = useSiteStatus(siteId);
  const { crawling, rendering, mutate, runsKey } = status;
  const [starting, setStarting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const was = useRef<{ crawling: boolean; rendering: boolean; runsKey: string; crawl: string } | null>(null);

  useEffect(() => {
    const data = status.data;
    if (!data || runsKey === null) return;
    const run = data.latestRun;
    const crawl = `${run?.id}:${run?.state}`;
    const before = was.current;
    was.current = { crawling, rendering, runsKey, crawl };
    if (!before) return;
    if (crawling && !before.crawling) setAnnouncement('Crawl in progress.');
    if (rendering && !before.rendering) setAnnouncement('Accessibility scan in progress.');
    if (!rendering && before.rendering) setAnnouncement('Accessibility scan finished.');
    if (runsKey === before.runsKey) return;
    // A run started, ended or was replaced, whether or not this page saw it running: the run
    // history (rendered on the server) gets its new row.
    if (crawl !== before.crawl && run && run.state !== 'running') {
      setAnnouncement(
        run.state === 'failed'
          ? `Crawl failed${run.error ? `: ${run.error}` : ''}.`
          : `Crawl finished: ${run.broken_count} broken links found${run.cut_short === 1 ? '; the result is partial' : ''}.`,
      );
    }
    router.refresh();
  }, [crawling, rendering, runsKey, status.data, router]);

  async function crawlNow() {
    setStarting(true);
    setActionError(null);
    try {
      const result = await requestJson<CrawlTriggerResponse>(`/v1/sites/${siteId}/crawl`, {
        method: 'POST',
      });
      setAnnouncement(result.started ? 'Crawl started.' : 'A crawl is already running.');
      await mutate();
    } catch (e) {
      setActionError(failureMessage(e, 'Could not start the crawl.'));
    } finally {
      setStarting(false);
    }
  }

  const site = status.data?.site;
  const crawls = site
    ? crawlsSite({ scanner: site.scanner_enabled === 1, a11y: site.a11y_enabled === 1 })
    : true;
  return (
    <Section
      id="crawl"
      title="Crawl"
      description={
        site
          ? site.enabled
            ? `Next scheduled crawl: ${formatDateTime(site.next_run_at)}`
            : 'Not scheduled: neither Broken links nor Accessibility is on.'
          : undefined
      }
      actions={
        canCrawl && crawls ? (
          // Pending, not disabled, while a crawl runs: the button keeps the focus of whoever pressed it.
          <Button variant="primary" onClick={crawlNow} pending={starting || crawling} disabled={!status.data}>
            {crawling ? 'Crawling…' : 'Crawl now'}
          </Button>
        ) : null
      }
    >
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {actionError ? (
        <Alert tone="danger" className="mb-4">
          {actionError}
        </Alert>
      ) : null}
      {site && !crawls ? (
        <Alert tone="warning" className="mb-4">
          {siteCrawlPlanNote(site)}{' '}
          {canManage ? (
            <Link href={`/sites/${site.id}/settings`} className="font-medium underline">
              Change the apps in settings
            </Link>
          ) : (
            'An owner or admin can change the apps in the site settings.'
          )}
        </Alert>
      ) : null}
      {status.error ? (
        <LoadError title="Could not load crawl status" error={status.error} onRetry={mutate} />
      ) : !status.data ? (
        <Skeleton className="h-24 w-full" />
      ) : crawling ? (
        <LiveProgress live={status.data.live} maxPages={status.data.site.max_pages} />
      ) : (
        <>
          <LatestRunSummary status={status.data} />
          {rendering ? (
            <div className="mt-4">
              <RenderProgress live={status.data.a11yLive} />
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}

/** The crawl as it runs: the bar (see crawlProgress), then the counters, maxPages among them. */
export function LiveProgress({ live, maxPages }: { live: LiveCrawlState; maxPages: number }) {
  const progress = crawlProgress(live);
  return (
    <div>
      <div className="mb-3 flex items-center gap-2">
        <Badge tone="info">{progress.value === null ? 'Starting' : 'Crawling'}</Badge>
        <span className="text-sm text-zinc-600">Updates every few seconds.</span>
      </div>
      <label htmlFor="crawl-progress" className="text-sm font-medium text-zinc-800">
        {progress.label}
      </label>
      {/* Without a value the bar is indeterminate. */}
      <progress
        id="crawl-progress"
        max={progress.max}
        value={progress.value ?? undefined}
        className="mt-2 h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent-600 [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-accent-600"
      />
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat
          label="Pages crawled"
          value={formatNumber(live.pagesCrawled)}
          hint={`stops at ${formatNumber(maxPages)}`}
        />
        <Stat label="Broken so far" value={formatNumber(live.brokenCount)} />
        <Stat label="In flight" value={formatNumber(live.inFlight)} />
        <Stat label="Waiting" value={formatNumber(live.pending)} />
      </dl>
    </div>
  );
}

/**
 * The overview's one line about the latest crawl. A failure's reason is the crawler's lower-case
 * clause ("the root URL ... could not be fetched"), so it follows a colon rather than starting a
 * sentence of its own.
 */
export function latestRunSentence(run: Pick<Run, 'state' | 'started_at' | 'finished_at' | 'error'>): string {
  const failed = run.state === 'failed';
  const when = formatDateTime(run.finished_at ?? run.started_at);
  const took = run.finished_at ? ` after ${formatDuration(run.finished_at - run.started_at)}` : '';
  const reason = failed && run.error ? `: ${run.error.replace(/[.\s]+$/, '')}` : '';
  return `Latest crawl ${failed ? 'failed' : 'finished'} ${when}${took}${reason}.`;
}

function LatestRunSummary({ status }: { status: SiteStatus }) {
  const { site } = status;
  const run = status.latestRun;
  // Each app's numbers show only while the app is on (an Accessibility-only site has no
  // broken-link figures to show, and its Broken links tab says the app is off).
  const links = site.scanner_enabled === 1;
  const seo = site.seo_enabled === 1;
  const a11y = site.a11y_enabled === 1;
  // The accessibility score comes from the latest run that scanned, which may be an earlier crawl
  // or a standalone scan: the status endpoint reports it apart from the latest crawl.
  const a11yRun = status.latestA11yRun;
  // By impact rather than a11y_issue_count, which the spec keeps at 0 for a crawl that chained the pass.
  const a11yViolations = a11yRun
    ? a11yRun.a11y_critical + a11yRun.a11y_serious + a11yRun.a11y_moderate + a11yRun.a11y_minor
    : 0;
  if (!run) {
    return (
      <p className="text-sm text-zinc-600">
        This site has not been crawled yet.
        {site.enabled ? ' The first crawl is scheduled; this page shows it when it starts.' : null}
      </p>
    );
  }
  const stats = 2 + Number(links) + Number(seo) + Number(a11y);
  return (
    <div>
      <p className="mb-3 text-sm text-zinc-600">{latestRunSentence(run)}</p>
      <CutShortNotice run={run} className="mb-3" />
      <dl
        className={cx(
          'grid grid-cols-2 gap-3',
          stats === 5 ? 'sm:grid-cols-3 lg:grid-cols-5' : stats === 4 ? 'sm:grid-cols-4' : 'sm:grid-cols-3',
        )}
      >
        <Stat label="Pages crawled" value={formatNumber(run.pages_crawled)} />
        <Stat label="Links checked" value={formatNumber(run.links_checked)} />
        {links ? (
          <Stat
            label="Broken links"
            value={formatNumber(run.broken_count)}
            hint={`${formatNumber(run.internal_broken)} internal, ${formatNumber(run.external_broken)} external`}
          />
        ) : null}
        {seo ? (
          <Stat
            label="SEO score"
            value={run.seo_score ?? '—'}
            hint={run.seo_score === null ? 'No SEO data' : 'out of 100'}
          />
        ) : null}
        {a11y ? (
          <Stat
            label="Accessibility score"
            value={a11yRun?.a11y_score ?? '—'}
            hint={
              a11yRun?.a11y_score == null ? (
                status.a11yLive.state === 'rendering' ? (
                  'Scan in progress'
                ) : (
                  'No score yet'
                )
              ) : (
                <Link href={`/sites/${site.id}/accessibility`} className="text-accent-700 hover:underline">
                  out of 100, {formatNumber(a11yViolations)}{' '}
                  {a11yViolations === 1 ? 'violation' : 'violations'}
                </Link>
              )
            }
          />
        ) : null}
      </dl>
      {links && run.broken_count > 0 ? (
        <p className="mt-4 text-sm">
          <Link href={`/sites/${site.id}/links`} className="font-medium text-accent-700 hover:underline">
            Review {formatNumber(run.broken_count)} broken links
          </Link>
        </p>
      ) : null}
    </div>
  );
}
