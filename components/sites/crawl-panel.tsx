'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { failureMessage, requestJson, useResource } from '@/components/api/client';
import type { CrawlTriggerResponse, LiveCrawlState, SiteStatus } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { formatDateTime, formatDuration, formatNumber } from '@/components/ui/format';
import { Alert, Badge, LoadError, Section, Skeleton, Stat } from '@/components/ui/surface';
import { CutShortNotice } from './report-parts';

const POLL_MS = 2000;

/**
 * Live crawl progress and the "Crawl now" action. Polls the status endpoint while a crawl runs and
 * refreshes the server-rendered run history when it ends.
 */
export function CrawlPanel({ siteId, canCrawl }: { siteId: string; canCrawl: boolean }) {
  const router = useRouter();
  const status = useResource<SiteStatus>(`/v1/sites/${siteId}/status`);
  const [starting, setStarting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const live = status.data?.live;
  const running = live !== undefined && live.state !== 'idle';
  const wasRunning = useRef(false);
  const { reload } = status;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  useEffect(() => {
    if (!status.data) return;
    if (running && !wasRunning.current) setAnnouncement('Crawl in progress.');
    if (!running && wasRunning.current) {
      const run = status.data.latestRun;
      setAnnouncement(
        run?.state === 'failed'
          ? `Crawl failed${run.error ? `: ${run.error}` : ''}.`
          : `Crawl finished: ${run?.broken_count ?? 0} broken links found${run?.cut_short === 1 ? '; the result is partial' : ''}.`,
      );
      router.refresh();
    }
    wasRunning.current = running;
  }, [running, status.data, router]);

  async function crawlNow() {
    setStarting(true);
    setActionError(null);
    try {
      const result = await requestJson<CrawlTriggerResponse>(`/v1/sites/${siteId}/crawl`, {
        method: 'POST',
      });
      setAnnouncement(result.started ? 'Crawl started.' : 'A crawl is already running.');
      await reload();
    } catch (e) {
      setActionError(failureMessage(e, 'Could not start the crawl.'));
    } finally {
      setStarting(false);
    }
  }

  const site = status.data?.site;
  return (
    <Section
      id="crawl"
      title="Crawl"
      description={
        site
          ? `Next scheduled crawl: ${site.enabled ? formatDateTime(site.next_run_at) : 'not scheduled'}`
          : undefined
      }
      actions={
        canCrawl ? (
          <Button variant="primary" onClick={crawlNow} pending={starting} disabled={running || !status.data}>
            {running ? 'Crawling…' : 'Crawl now'}
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
      {status.error ? (
        <LoadError title="Could not load crawl status" error={status.error} onRetry={reload} />
      ) : !status.data || !live ? (
        <Skeleton className="h-24 w-full" />
      ) : running ? (
        <LiveProgress live={live} maxPages={status.data.site.max_pages} />
      ) : (
        <LatestRunSummary status={status.data} />
      )}
    </Section>
  );
}

function LiveProgress({ live, maxPages }: { live: LiveCrawlState; maxPages: number }) {
  return (
    <div>
      <div className="mb-3 flex items-center gap-2">
        <Badge tone="info">{live.state === 'seeding' ? 'Starting' : 'Crawling'}</Badge>
        <span className="text-sm text-zinc-600">Updates every few seconds.</span>
      </div>
      <label htmlFor="crawl-progress" className="text-sm font-medium text-zinc-800">
        Pages crawled: {formatNumber(live.pagesCrawled)} of at most {formatNumber(maxPages)}
      </label>
      <progress
        id="crawl-progress"
        max={maxPages}
        value={Math.min(live.pagesCrawled, maxPages)}
        className="mt-2 h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent-600 [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-accent-600"
      />
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Links checked" value={formatNumber(live.linksChecked)} />
        <Stat label="Broken so far" value={formatNumber(live.brokenCount)} />
        <Stat label="In flight" value={formatNumber(live.inFlight)} />
        <Stat label="Waiting" value={formatNumber(live.pending)} />
      </dl>
    </div>
  );
}

function LatestRunSummary({ status }: { status: SiteStatus }) {
  const run = status.latestRun;
  // The accessibility score comes from the latest run that scanned, which may be an earlier crawl
  // or a standalone scan: the status endpoint reports it apart from the latest crawl.
  const a11y = status.site.a11y_enabled === 1;
  const a11yRun = status.latestA11yRun;
  // By impact rather than a11y_issue_count, which the spec keeps at 0 for a crawl that chained the pass.
  const a11yViolations = a11yRun
    ? a11yRun.a11y_critical + a11yRun.a11y_serious + a11yRun.a11y_moderate + a11yRun.a11y_minor
    : 0;
  if (!run) {
    return (
      <p className="text-sm text-zinc-600">
        This site has not been crawled yet.
        {status.site.scanner_enabled || status.site.seo_enabled || status.site.a11y_enabled
          ? ' The first crawl is scheduled.'
          : null}
      </p>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-zinc-600">
        Latest crawl {run.state === 'failed' ? 'failed' : 'finished'}{' '}
        {formatDateTime(run.finished_at ?? run.started_at)}
        {run.finished_at ? ` after ${formatDuration(run.finished_at - run.started_at)}` : ''}.
        {run.state === 'failed' && run.error ? ` ${run.error}` : ''}
      </p>
      <CutShortNotice run={run} className="mb-3" />
      <dl className={cx('grid grid-cols-2 gap-3', a11y ? 'sm:grid-cols-3 lg:grid-cols-5' : 'sm:grid-cols-4')}>
        <Stat label="Pages crawled" value={formatNumber(run.pages_crawled)} />
        <Stat label="Links checked" value={formatNumber(run.links_checked)} />
        <Stat
          label="Broken links"
          value={formatNumber(run.broken_count)}
          hint={`${formatNumber(run.internal_broken)} internal, ${formatNumber(run.external_broken)} external`}
        />
        <Stat
          label="SEO score"
          value={run.seo_score ?? '—'}
          hint={run.seo_score === null ? 'No SEO data' : 'out of 100'}
        />
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
                <Link
                  href={`/sites/${status.site.id}/accessibility`}
                  className="text-accent-700 hover:underline"
                >
                  out of 100, {formatNumber(a11yViolations)}{' '}
                  {a11yViolations === 1 ? 'violation' : 'violations'}
                </Link>
              )
            }
          />
        ) : null}
      </dl>
      {run.broken_count > 0 ? (
        <p className="mt-4 text-sm">
          <Link
            href={`/sites/${status.site.id}/links`}
            className="font-medium text-accent-700 hover:underline"
          >
            Review {formatNumber(run.broken_count)} broken links
          </Link>
        </p>
      ) : null}
    </div>
  );
}
