'use client';

import { useResource } from '@/components/api/client';
import type { Run } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatNumber } from '@/components/ui/format';
import { Alert, Badge, EmptyState, Skeleton, Stat } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import type { SeoReport as SeoReportBody, SeoReportCheck } from '@/lib/seo/report';

type SeoReportResponse = SeoReportBody & { run: Run };

const impactTone = { critical: 'danger', serious: 'danger', moderate: 'warning', minor: 'neutral' } as const;

export function SeoReport({ siteId }: { siteId: string }) {
  const report = useResource<SeoReportResponse>(`/v1/sites/${siteId}/seo-report`);

  if (report.error) {
    if (report.error.status === 404) {
      return (
        <EmptyState
          title="No SEO report yet"
          description="SEO checks run during each crawl while the SEO app is on. The report appears after the first one finishes."
        />
      );
    }
    return (
      <Alert tone="danger" title="Could not load the SEO report">
        <p>{report.error.message}</p>
        <Button size="sm" className="mt-3" onClick={() => void report.reload()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (!report.data) {
    return (
      <div>
        <p role="status" className="sr-only">
          Loading SEO report…
        </p>
        <Skeleton className="mb-4 h-20 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }

  const { run, summary, checks } = report.data;
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">From the crawl started {formatDateTime(run.started_at)}.</p>
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
            <CheckCard key={check.check} check={check} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CheckCard({ check }: { check: SeoReportCheck }) {
  return (
    <li className="rounded-lg border border-zinc-200 bg-white shadow-xs">
      <div className="px-5 py-4">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={impactTone[check.impact]}>{check.impact}</Badge>
          <span className="text-xs text-zinc-600">
            {check.count} {check.count === 1 ? 'page' : 'pages'}
          </span>
        </div>
        <h3 className="mt-2 text-sm font-semibold text-zinc-900">{check.title}</h3>
        <p className="mt-1 text-sm text-zinc-600">{check.help}</p>
      </div>
      <details className="border-t border-zinc-200 px-5 py-3" open={check.pages.length <= 3}>
        <summary className="cursor-pointer text-sm font-medium text-zinc-800">Affected pages</summary>
        <div className="mt-3">
          <Table caption={`Pages failing: ${check.title}`}>
            <thead>
              <tr>
                <Th>Page</Th>
                <Th>Detail</Th>
              </tr>
            </thead>
            <tbody>
              {check.pages.map((page) => (
                <tr key={page.pageUrl}>
                  <Td className="break-all">
                    <a
                      href={page.pageUrl}
                      className="text-accent-700 hover:underline"
                      rel="noreferrer"
                      target="_blank"
                    >
                      {page.pageUrl}
                      <span className="sr-only"> (opens in a new tab)</span>
                    </a>
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
        </div>
      </details>
    </li>
  );
}
