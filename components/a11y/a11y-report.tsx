'use client';

import { useRouter } from 'next/navigation';
import { type ReactNode, useCallback, useMemo } from 'react';
import type { A11yReport as A11yReportResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { CutShortNotice, ReportPlaceholder } from '@/components/sites/report-parts';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Alert } from '@/components/ui/surface';
import { Tabs } from '@/components/ui/tabs';
import type { A11yTrendPoint } from '@/lib/dashboard/a11y';
import { formatDateTime } from '@/lib/format';
import { A11yProgress } from './a11y-progress';
import { A11ySummary } from './a11y-summary';
import { CoverageMatrix } from './coverage-matrix';
import { PageList } from './page-list';
import { groupByRule } from './rule-groups';
import { type FindingActions, RuleList } from './rule-list';
import { ScoreTrend } from './score-trend';
import { SuppressionList } from './suppression-list';

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
  const report = useApi<A11yReportResponse>(`/v1/sites/${siteId}/a11y-report`);
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const { mutate } = report;

  const onChanged = useCallback(
    async (message: string, options?: { focus?: boolean }) => {
      await mutate();
      router.refresh();
      announce(message, options);
    },
    [mutate, router, announce],
  );
  const onScanFinished = useCallback(async () => {
    await mutate();
    router.refresh();
  }, [mutate, router]);
  const actions: FindingActions = { siteId, canManage, onChanged };

  const violations = useMemo(() => (report.data ? groupByRule(report.data, 'violation') : []), [report.data]);
  const review = useMemo(() => (report.data ? groupByRule(report.data, 'incomplete') : []), [report.data]);

  return (
    <div className="space-y-8">
      <Announcement announcer={announcer} />
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
}: {
  report: A11yReportResponse;
  actions: FindingActions;
  viewerId: string | undefined;
  trend: A11yTrendPoint[];
  violations: ReturnType<typeof groupByRule>;
  review: ReturnType<typeof groupByRule>;
}) {
  const { run } = report;
  const violationCount = report.issues.filter((f) => f.type === 'violation').length;
  const reviewCount = report.issues.length - violationCount;
  const scanned = report.summary.pagesScanned > 0;
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
        <section aria-labelledby="a11y-trend-title">
          <h3 id="a11y-trend-title" className="mb-3 text-base font-semibold text-zinc-900">
            Score over time
          </h3>
          <ScoreTrend points={trend} />
        </section>
      ) : null}

      <Tabs
        label="Accessibility report views"
        items={[
          {
            id: 'issues',
            label: `Issues (${violations.length})`,
            panel: (
              <Part title="Issues by rule">
                <RuleList groups={violations} kind="violation" actions={actions} scanned={scanned} />
              </Part>
            ),
          },
          {
            id: 'review',
            label: `Needs review (${review.length})`,
            panel: (
              <Part title="Needs review">
                <p className="mb-3 text-sm text-zinc-600">
                  Checks axe could not decide, such as text over a background image. A person must look; they
                  never lower the score or break the verdict.
                </p>
                <RuleList groups={review} kind="incomplete" actions={actions} scanned={scanned} />
              </Part>
            ),
          },
          {
            id: 'coverage',
            label: 'Coverage',
            panel: (
              <Part title="WCAG 2.2 coverage">
                <CoverageMatrix report={report} actions={actions} viewerId={viewerId} />
              </Part>
            ),
          },
          {
            id: 'pages',
            label: `Pages (${report.byPage.length})`,
            panel: (
              <Part title="Pages, worst first">
                <PageList report={report} />
              </Part>
            ),
          },
          {
            id: 'suppressions',
            label: `Suppressions (${report.suppressions.length})`,
            panel: (
              <Part title="Suppressions">
                <SuppressionList suppressions={report.suppressions} actions={actions} viewerId={viewerId} />
              </Part>
            ),
          },
        ]}
      />
    </>
  );
}

/** A report part: its h3 keeps the page outline whole under the tab's name. */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-3 text-base font-semibold text-zinc-900">{title}</h3>
      {children}
    </section>
  );
}
