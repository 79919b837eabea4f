'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useResource } from '@/components/api/client';
import type { A11yReport as A11yReportResponse } from '@/components/api/types';
import { CutShortNotice, ReportPlaceholder } from '@/components/sites/report-parts';
import { formatDateTime } from '@/components/ui/format';
import { Alert } from '@/components/ui/surface';
import type { A11yTrendPoint } from '@/lib/dashboard/a11y';
import { A11yProgress } from './a11y-progress';
import { A11ySummary } from './a11y-summary';
import { CoverageMatrix } from './coverage-matrix';
import { PageList } from './page-list';
import { groupByRule } from './rule-groups';
import { type FindingActions, RuleList } from './rule-list';
import { ScoreTrend } from './score-trend';
import { SuppressionList } from './suppression-list';

const SECTIONS = [
  { id: 'a11y-issues', label: 'Issues' },
  { id: 'a11y-review', label: 'Needs review' },
  { id: 'a11y-coverage', label: 'Coverage' },
  { id: 'a11y-pages', label: 'Pages' },
  { id: 'a11y-suppressions', label: 'Suppressions' },
] as const;

/**
 * The Accessibility tab: live render progress, then the latest scanning run's report (verdict,
 * score, trend, issues by rule, needs review apart, coverage with manual checks, pages worst first,
 * suppressions). Writes (suppress, undo, manual checks) reload the report, whose score the API
 * recomputes at once, and refresh the server-rendered trend.
 */
export function A11yReport({
  siteId,
  canManage,
  canCrawl,
  viewerId,
  trend,
}: {
  siteId: string;
  canManage: boolean;
  canCrawl: boolean;
  viewerId: string | undefined;
  trend: A11yTrendPoint[];
}) {
  const router = useRouter();
  const report = useResource<A11yReportResponse>(`/v1/sites/${siteId}/a11y-report`);
  const [announcement, setAnnouncement] = useState('');
  const { reload } = report;

  const onChanged = useCallback(
    async (message: string) => {
      await reload();
      router.refresh();
      setAnnouncement(message);
    },
    [reload, router],
  );
  const onScanFinished = useCallback(async () => {
    await reload();
    router.refresh();
  }, [reload, router]);
  const actions: FindingActions = { siteId, canManage, onChanged };

  const violations = useMemo(() => (report.data ? groupByRule(report.data, 'violation') : []), [report.data]);
  const review = useMemo(() => (report.data ? groupByRule(report.data, 'incomplete') : []), [report.data]);

  return (
    <div className="space-y-8">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <A11yProgress siteId={siteId} onFinished={onScanFinished} />
      {report.error || !report.data ? (
        <ReportPlaceholder
          report={report}
          name="accessibility report"
          missing={() => ({
            title: 'Not scanned yet',
            description: `The accessibility scan renders the pages each crawl finds, right after the crawl, and then on its own schedule. The report appears when the first scan finishes.${canCrawl ? ' Start a crawl from the site overview to scan now.' : ''}`,
          })}
        />
      ) : (
        <Loaded
          report={report.data}
          actions={actions}
          viewerId={viewerId}
          trend={trend}
          violations={violations}
          review={review}
          siteId={siteId}
        />
      )}
    </div>
  );
}

function Loaded({
  report,
  actions,
  viewerId,
  trend,
  violations,
  review,
  siteId,
}: {
  report: A11yReportResponse;
  actions: FindingActions;
  viewerId: string | undefined;
  trend: A11yTrendPoint[];
  violations: ReturnType<typeof groupByRule>;
  review: ReturnType<typeof groupByRule>;
  siteId: string;
}) {
  const { run } = report;
  const violationCount = report.issues.filter((f) => f.type === 'violation').length;
  const reviewCount = report.issues.length - violationCount;
  return (
    <>
      <div className="space-y-4">
        <p className="text-sm text-zinc-600">
          From the {run.kind === 'a11y' ? 'accessibility scan' : 'crawl and scan'} started{' '}
          {formatDateTime(run.started_at)}
          {run.state === 'running' ? ' (still running)' : ''}. Suppressions and excluded paths apply as they
          are now.
        </p>
        <CutShortNotice run={run} />
        <A11ySummary report={report} violations={violationCount} needsReview={reviewCount} />
        {actions.canManage ? null : (
          <Alert tone="info">
            Suppressing findings and recording manual checks need an owner or admin role; ask one of them if a
            finding should be suppressed.
          </Alert>
        )}
      </div>

      {trend.length > 0 ? (
        <Part id="a11y-trend" title="Score over time">
          <ScoreTrend points={trend} />
        </Part>
      ) : null}

      <nav aria-label="Accessibility report sections">
        <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="font-medium text-accent-700 hover:underline">
                {s.label}
              </a>
            </li>
          ))}
          <li>
            <Link href={`/sites/${siteId}/settings`} className="text-zinc-600 hover:underline">
              Scan settings
            </Link>
          </li>
        </ul>
      </nav>

      <Part
        id="a11y-issues"
        title={`Issues (${violations.length} ${violations.length === 1 ? 'rule' : 'rules'})`}
      >
        <RuleList groups={violations} kind="violation" actions={actions} />
      </Part>
      <Part
        id="a11y-review"
        title={`Needs review (${review.length} ${review.length === 1 ? 'rule' : 'rules'})`}
      >
        <p className="mb-3 text-sm text-zinc-600">
          Checks axe could not decide, such as contrast over a background image. A person must look; they
          never lower the score or break the verdict.
        </p>
        <RuleList groups={review} kind="incomplete" actions={actions} />
      </Part>
      <Part id="a11y-coverage" title="WCAG 2.2 coverage">
        <CoverageMatrix report={report} actions={actions} viewerId={viewerId} />
      </Part>
      <Part id="a11y-pages" title="Pages">
        <PageList report={report} />
      </Part>
      <Part id="a11y-suppressions" title="Suppressions">
        <SuppressionList suppressions={report.suppressions} actions={actions} viewerId={viewerId} />
      </Part>
    </>
  );
}

/** A report part with an anchor the section links jump to (focusable so the jump moves focus). */
function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} tabIndex={-1} className="scroll-mt-4 outline-none">
      <h3 id={`${id}-title`} className="mb-3 text-base font-semibold text-zinc-900">
        {title}
      </h3>
      {children}
    </section>
  );
}
