'use client';

import type { ReactNode } from 'react';
import type { ApiClientError } from '@/components/api/client';
import type { Run } from '@/components/api/types';
import { Alert, EmptyState, LoadError, Loading, Skeleton } from '@/components/ui/surface';

/**
 * What a crawl report shows until it has data: "no report yet" when the API answers 404 (no crawl
 * has produced one), the error with a retry for any other failure, and a skeleton while loading.
 */
export function ReportPlaceholder({
  report,
  name,
  missing,
}: {
  /** A read (`useApi`): its error, and how to read again. */
  report: { error?: ApiClientError; mutate: () => unknown };
  /** "report", "SEO report": completes "Could not load the …" and "Loading …". */
  name: string;
  missing: (error: ApiClientError) => { title: string; description: string };
}) {
  if (report.error?.status === 404) return <EmptyState {...missing(report.error)} />;
  if (report.error) {
    return <LoadError title={`Could not load the ${name}`} error={report.error} onRetry={report.mutate} />;
  }
  return (
    <Loading label={`Loading ${name}`}>
      <Skeleton className="mb-4 h-20 w-full" />
      <Skeleton className="h-64 w-full" />
    </Loading>
  );
}

/**
 * One finding of a report: what is wrong, then the pages it affects behind a disclosure that starts
 * open while the list is short enough to scan (`defaultOpen` decides instead where each page's
 * detail is long, as accessibility findings' example elements are).
 */
export function FindingCard({
  header,
  summary,
  pageCount,
  defaultOpen,
  children,
}: {
  header: ReactNode;
  summary: ReactNode;
  pageCount: number;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-zinc-200 bg-white shadow-xs">
      <div className="px-5 py-4">{header}</div>
      <details className="border-t border-zinc-200 px-5 py-3" open={defaultOpen ?? pageCount <= 3}>
        <summary className="cursor-pointer text-sm font-medium text-zinc-800">{summary}</summary>
        <div className="mt-3">{children}</div>
      </details>
    </li>
  );
}

/**
 * Says a crawl's result is partial, and why (the run's limits_hit), wherever the run's numbers are
 * shown: a result cut short must never read as complete. A status region, so screen readers
 * announce it without interrupting; nothing at all for a complete run.
 */
export function CutShortNotice({
  run,
  className,
}: {
  run: Pick<Run, 'cut_short' | 'limits_hit'>;
  className?: string;
}) {
  if (run.cut_short !== 1) return null;
  return (
    <Alert tone="warning" title="This crawl's result is partial" className={className}>
      <ul className="list-disc space-y-1 pl-5">
        {run.limits_hit.map((hit) => (
          <li key={hit.limit}>{hit.detail}</li>
        ))}
      </ul>
    </Alert>
  );
}
