import type { A11yReport } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { formatNumber } from '@/components/ui/format';
import { Badge, Stat } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';

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
  const { verdict } = summary;
  return (
    <div className="space-y-4">
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
            'Automated checks cover part of WCAG; record the criteria they cannot test in the coverage matrix.'}
        </p>
      </div>
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
        <Badge tone="danger">{summary.critical} critical</Badge>
        <Badge tone="danger">{summary.serious} serious</Badge>
        <Badge tone="warning">{summary.moderate} moderate</Badge>
        <Badge>{summary.minor} minor</Badge>
        <span className="text-zinc-600">
          and {formatNumber(needsReview)} {needsReview === 1 ? 'finding needs' : 'findings need'} review
          (never counted as failures)
        </span>
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <Table caption="Findings by WCAG principle" showCaption>
          <thead>
            <tr>
              <Th>Principle</Th>
              <Th className="text-right">Violations</Th>
              <Th className="text-right">Needs review</Th>
              <Th className="text-right">Pages</Th>
            </tr>
          </thead>
          <tbody>
            {PRINCIPLES.map((principle) => {
              const row = summary.byPrinciple[principle] ?? { violations: 0, needsReview: 0, pages: 0 };
              return (
                <tr key={principle}>
                  <Td>{principle}</Td>
                  <Td className="text-right tabular-nums">{formatNumber(row.violations)}</Td>
                  <Td className="text-right tabular-nums">{formatNumber(row.needsReview)}</Td>
                  <Td className="text-right tabular-nums">{formatNumber(row.pages)}</Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
        <Table caption="Violations by standard" showCaption>
          <thead>
            <tr>
              <Th>Standard</Th>
              <Th className="text-right">Rules</Th>
              <Th className="text-right">Occurrences</Th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <Td>EN 301 549</Td>
              <Td className="text-right tabular-nums">{formatNumber(summary.compliance.en301549.rules)}</Td>
              <Td className="text-right tabular-nums">
                {formatNumber(summary.compliance.en301549.occurrences)}
              </Td>
            </tr>
            <tr>
              <Td>
                Section 508
                <span className="block text-xs text-zinc-600">WCAG 2.0 A and AA criteria</span>
              </Td>
              <Td className="text-right tabular-nums">{formatNumber(summary.compliance.section508.rules)}</Td>
              <Td className="text-right tabular-nums">
                {formatNumber(summary.compliance.section508.occurrences)}
              </Td>
            </tr>
          </tbody>
        </Table>
      </div>
    </div>
  );
}
