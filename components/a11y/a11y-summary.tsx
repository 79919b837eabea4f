import type { ReactNode } from 'react';
import type { A11yReport } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { Badge, Stat } from '@/components/ui/surface';
import { formatNumber } from '@/lib/format';
import { IMPACTS } from './rule-groups';
import { impactTone } from './rule-list';

const PRINCIPLES = ['Perceivable', 'Operable', 'Understandable', 'Robust'] as const;

/**
 * The report's headline: the AA verdict in words, the score, pages, impacts, what was resolved since
 * the previous scan, and the tallies by principle and by standard (EN 301 549, Section 508).
 */
export function A11ySummary({
  report,
  violations,
  needsReview,
}: {
  report: A11yReport;
  /** Confirmed findings, one per (page, rule), after suppressions. */
  violations: number;
  needsReview: number;
}) {
  const { summary } = report;
  return (
    <div className="space-y-4">
      <VerdictPanel summary={summary} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat
          label="Accessibility score"
          value={summary.score ?? '—'}
          hint={summary.score === null ? 'No page scanned' : 'out of 100'}
        />
        <Stat label="Pages scanned" value={formatNumber(summary.pagesScanned)} />
        <Stat label="Violations" value={formatNumber(violations)} hint="confirmed, by page and rule" />
        <Stat
          label="Resolved"
          value={formatNumber(summary.resolvedSinceLastScan)}
          hint="since the previous scan"
        />
      </dl>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        {IMPACTS.map((impact) => (
          <Badge key={impact} tone={summary[impact] > 0 ? impactTone[impact] : 'neutral'}>
            {summary[impact]} {impact}
          </Badge>
        ))}
        <span className="text-zinc-600">
          and {formatNumber(needsReview)} {needsReview === 1 ? 'finding needs' : 'findings need'} review
          (never counted as failures)
        </span>
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <Tally title="By WCAG principle">
          {PRINCIPLES.map((principle) => {
            const row = summary.byPrinciple[principle] ?? { violations: 0, needsReview: 0, pages: 0 };
            return (
              <TallyRow key={principle} name={principle}>
                {plural(row.violations, 'violation')}, {formatNumber(row.needsReview)} to review,{' '}
                {plural(row.pages, 'page')}
              </TallyRow>
            );
          })}
        </Tally>
        <Tally title="Violations by standard">
          <TallyRow name="EN 301 549">
            {plural(summary.compliance.en301549.rules, 'rule')},{' '}
            {plural(summary.compliance.en301549.occurrences, 'element')}
          </TallyRow>
          <TallyRow name="Section 508" note="WCAG 2.0 A and AA criteria">
            {plural(summary.compliance.section508.rules, 'rule')},{' '}
            {plural(summary.compliance.section508.occurrences, 'element')}
          </TallyRow>
        </Tally>
      </div>
    </div>
  );
}

const plural = (n: number, noun: string) => `${formatNumber(n)} ${n === 1 ? noun : `${noun}s`}`;

/** A titled list of name/figures pairs that reflows on narrow screens instead of scrolling. */
function Tally({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      <dl className="mt-2 divide-y divide-zinc-100">{children}</dl>
    </div>
  );
}

function TallyRow({ name, note, children }: { name: string; note?: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2 text-sm">
      <dt className="font-medium text-zinc-800">
        {name}
        {note ? <span className="block text-xs font-normal text-zinc-600">{note}</span> : null}
      </dt>
      <dd className="text-zinc-700 tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The AA verdict in words. A run that scanned no page has no verdict at all: the API's `compliant`
 * is then vacuously true, and a compliance buyer must never read "compliant" off an empty scan.
 */
function VerdictPanel({ summary }: { summary: A11yReport['summary'] }) {
  const { verdict } = summary;
  if (summary.pagesScanned === 0) {
    return (
      <div className="rounded-lg border border-amber-300 bg-amber-50 px-5 py-4 text-amber-900">
        <p className="text-base font-semibold">No verdict: no page could be scanned</p>
        <p className="mt-1 text-sm">
          The latest scan rendered no page to the end (each page that fails is recorded as not scanned). The
          score and the WCAG 2.2 {verdict.targetLevel} verdict return with the next scan that checks a page.
        </p>
      </div>
    );
  }
  return (
    <div
      className={cx(
        'rounded-lg border px-5 py-4',
        verdict.compliant
          ? 'border-green-300 bg-green-50 text-green-900'
          : 'border-red-300 bg-red-50 text-red-900',
      )}
    >
      <p className="text-base font-semibold">
        {verdict.compliant
          ? `No level A or AA failure found: compliant with WCAG 2.2 ${verdict.targetLevel} on automated checks`
          : `Not compliant with WCAG 2.2 ${verdict.targetLevel}`}
      </p>
      <p className="mt-1 text-sm">
        {verdict.risk ??
          'Automated checks cover part of WCAG; record the criteria they cannot test under Coverage.'}
      </p>
    </div>
  );
}
