'use client';

import { failureMessage } from '@/components/api/client';
import type { SeoReportCheck, SeoReport as SeoReportResponse } from '@/components/api/types';
import { useApi, useApiPages } from '@/components/api/use-api';
import { Button } from '@/components/ui/button';
import { Alert, Badge, EmptyState, Stat } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { runViewHref } from './crawl-hrefs';
import { CutShortNotice, FindingCard, ReportPlaceholder } from './report-parts';
import { RunChanges } from './run-changes';
import { UrlLink } from './url-link';

const impactTone = { critical: 'danger', serious: 'danger', moderate: 'warning', minor: 'neutral' } as const;

/** The SEO report of the latest crawl, or of `runId` (a past crawl on the History tab). */
export function SeoReport({ siteId, runId }: { siteId: string; runId?: string }) {
  const path = runId ? `/v1/sites/${siteId}/runs/${runId}/seo-report` : `/v1/sites/${siteId}/seo-report`;
  const report = useApi<SeoReportResponse>(path);

  if (report.error || !report.data) {
    return (
      <ReportPlaceholder
        report={report}
        name="SEO report"
        missing={() => ({
          title: 'No SEO report yet',
          description:
            'SEO checks run during each crawl while the SEO app is on. The report appears after the first one finishes.',
        })}
      />
    );
  }

  const { run, summary, checks, sincePreviousRun } = report.data;
  const titles = new Map(checks.map((c) => [c.check, c.title]));
  const previousId = sincePreviousRun.previousRunId;
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">From the crawl started {formatDateTime(run.started_at)}.</p>
      <CutShortNotice run={run} />
      <RunChanges
        what="SEO issues"
        previousRunId={previousId}
        previousHref={previousId ? runViewHref(siteId, previousId, '/seo') : undefined}
        added={sincePreviousRun.newIssues}
        fixed={sincePreviousRun.fixedIssues}
        addedCount={sincePreviousRun.newIssueCount}
        fixedCount={sincePreviousRun.fixedIssueCount}
        item={(issue) => ({
          key: `${issue.check} ${issue.pageUrl}`,
          node: (
            <>
              <span className="font-medium text-zinc-900">{titles.get(issue.check) ?? issue.check}</span>
              {' on '}
              <UrlLink siteId={siteId} url={issue.pageUrl} runId={runId} />
            </>
          ),
        })}
      />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat
          label="SEO score"
          value={run.seo_score ?? '—'}
          hint={run.seo_score === null ? 'No data' : 'out of 100'}
        />
        <Stat label="Issues" value={formatNumber(summary.issueCount)} />
        <Stat label="Pages affected" value={formatNumber(summary.pagesAffected)} />
        <Stat label="Checks failing" value={formatNumber(summary.checksFailing)} />
      </dl>
      <p className="flex flex-wrap gap-2 text-sm">
        <Badge tone="danger">{summary.critical} critical</Badge>
        <Badge tone="danger">{summary.serious} serious</Badge>
        <Badge tone="warning">{summary.moderate} moderate</Badge>
        <Badge>{summary.minor} minor</Badge>
      </p>
      {checks.length === 0 ? (
        <EmptyState title="No SEO issues" description="Every crawled page passed every on-page check." />
      ) : (
        <ul className="space-y-4">
          {checks.map((check) => (
            // Keyed by run too: another crawl's report starts each check again from its first page.
            <CheckCard
              key={`${run.id} ${check.check}`}
              check={check}
              path={path}
              siteId={siteId}
              runId={runId}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * One failing check: its count, its first page of pages, and "Show more pages", which reads the
 * check's next page through its cursor (the same report path with ?check=&cursor=) and adds it below.
 */
function CheckCard({
  check,
  path,
  siteId,
  runId,
}: {
  check: SeoReportCheck;
  path: string;
  siteId: string;
  runId?: string;
}) {
  // The pages after the first, read through the cursors as they are asked for: index 0 is the
  // page after the report's own, each next one after the page before.
  const more = useApiPages<SeoReportResponse>(
    (index, previous) => {
      const cursor = index === 0 ? check.nextCursor : previous && pageOf(previous, check)?.nextCursor;
      return cursor ? `${path}?${new URLSearchParams({ check: check.check, cursor })}` : null;
    },
    { initialSize: 0 },
  );
  const read = more.data ?? [];
  const pages = [...check.pages, ...read.flatMap((r) => pageOf(r, check)?.pages ?? [])];
  const last = read.at(-1);
  const cursor = last === undefined ? check.nextCursor : (pageOf(last, check)?.nextCursor ?? null);
  const loading = more.size > read.length && more.error === undefined;
  const error = more.error ? failureMessage(more.error, 'Could not load more pages.') : null;
  const showMore = () => {
    if (cursor !== null && !loading) void more.setSize(read.length + 1);
  };

  return (
    <FindingCard
      pageCount={check.count}
      summary="Affected pages"
      header={
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={impactTone[check.impact]}>{check.impact}</Badge>
            <span className="text-xs text-zinc-600">
              {formatNumber(check.count)} {check.count === 1 ? 'page' : 'pages'}
            </span>
          </div>
          <h3 className="mt-2 text-sm font-semibold text-zinc-900">{check.title}</h3>
          <p className="mt-1 text-sm text-zinc-600">{check.help}</p>
        </>
      }
    >
      <Table caption={`Pages failing: ${check.title}`}>
        <thead>
          <tr>
            <Th>Page</Th>
            <Th>Detail</Th>
          </tr>
        </thead>
        <tbody>
          {pages.map((page) => (
            <tr key={page.pageUrl}>
              <Td className="break-all">
                <UrlLink siteId={siteId} url={page.pageUrl} runId={runId} />
              </Td>
              <Td>
                {page.detail}
                {page.value !== undefined ? (
                  <span className="ml-1 font-mono text-xs text-zinc-600">({String(page.value)})</span>
                ) : null}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {/* Only a check with more pages than its first page pages at all. */}
      {check.nextCursor === null ? null : (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p className="text-sm text-zinc-600" aria-live="polite">
            {pages.length < check.count
              ? `Showing ${formatNumber(pages.length)} of ${formatNumber(check.count)} pages.`
              : `All ${formatNumber(check.count)} pages shown.`}
          </p>
          {cursor !== null ? (
            <Button size="sm" pending={loading} onClick={showMore}>
              {loading ? 'Loading more pages…' : 'Show more pages'}
            </Button>
          ) : null}
        </div>
      )}
      {error ? (
        <Alert tone="danger" title="Could not load more pages" className="mt-3">
          {error} Press “Show more pages” to try again.
        </Alert>
      ) : null}
    </FindingCard>
  );
}

/** `check`'s part of a report page read through its cursor (the page lists that check alone). */
function pageOf(report: SeoReportResponse, check: SeoReportCheck): SeoReportCheck | undefined {
  return report.checks.find((c) => c.check === check.check);
}
