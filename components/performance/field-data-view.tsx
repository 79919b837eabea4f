'use client';

import { useId, useState } from 'react';
import type { FieldDataReport, FieldWindow } from '@/components/api/types';
import { Choice } from '@/components/ui/choice';
import { cx } from '@/components/ui/cx';
import { Badge } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { TableDisclosure } from '@/components/ui/table-disclosure';
import { TrendLine } from '@/components/ui/trend-line';
import {
  FORM_FACTORS,
  type FormFactor,
  METRICS,
  type Metric,
  RATING_BOUNDS,
  type Rating,
  ratingOf,
} from '@/lib/fielddata/metrics';
import {
  bandsDescription,
  clsAxisTop,
  DEVICE_LABELS,
  dayMs,
  deviceWords,
  formatDay,
  formatDelta,
  formatMetric,
  formatTick,
  METRIC_NAMES,
  RATING_WORDS,
  trendSummary,
  verdictReading,
  windowRange,
} from './words';

const RATING_TONES: Record<Rating, 'success' | 'warning' | 'danger'> = {
  good: 'success',
  'needs-improvement': 'warning',
  poor: 'danger',
};

/**
 * The field data of a site, one device at a time (all devices, phones, desktops): the Core Web
 * Vitals verdict, the four p75 values with Google's ratings and their movement over 7 and 28 days,
 * and a weekly trend per metric whose figures are also a table. Every report is already loaded, so
 * switching devices is instant.
 */
export function FieldDataView({ reports }: { reports: Record<FormFactor, FieldDataReport | null> }) {
  const [device, setDevice] = useState<FormFactor>('ALL');
  const name = useId();
  const report = reports[device];
  return (
    <div className="space-y-6">
      <Choice
        legend="Devices"
        name={`${name}-device`}
        value={device}
        options={FORM_FACTORS.map((f) => ({ value: f, label: DEVICE_LABELS[f] }))}
        onChange={(v) => setDevice(v as FormFactor)}
      />
      {report ? (
        <DeviceReport report={report} />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-8 text-sm text-zinc-700">
          Not enough real-user data from {deviceWords(device)} for this origin in Chrome&apos;s dataset: it
          only reports what enough Chrome users on {deviceWords(device)} have visited.
        </p>
      )}
    </div>
  );
}

function DeviceReport({ report }: { report: FieldDataReport }) {
  const { latest } = report;
  const verdict = verdictReading(report.verdict, latest);
  const device = deviceWords(report.formFactor);
  return (
    <>
      <div
        className={cx(
          'rounded-lg border px-5 py-4',
          verdict.tone === 'success' && 'border-green-300 bg-green-50 text-green-900',
          verdict.tone === 'danger' && 'border-red-300 bg-red-50 text-red-900',
          verdict.tone === 'neutral' && 'border-zinc-300 bg-white text-zinc-800',
        )}
      >
        <p className="flex items-center gap-2 text-base font-semibold">
          <VerdictIcon tone={verdict.tone} />
          {verdict.title}
        </p>
        <p className="mt-1 text-sm">{verdict.detail}</p>
        <p className="mt-1 text-sm">
          Real visits on {device} over the 28 days {windowRange(latest.periodEnd)}.
        </p>
      </div>

      <section aria-labelledby="p75-title">
        <h3 id="p75-title" className="mb-3 text-base font-semibold text-zinc-900">
          75th percentile of real visits
        </h3>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {METRICS.map((m) => (
            <MetricCard key={m} metric={m} report={report} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="trend-title">
        <h3 id="trend-title" className="mb-1 text-base font-semibold text-zinc-900">
          Weekly trend
        </h3>
        <p className="mb-3 text-sm text-zinc-600">
          Each point is a rolling 28-day window, one a week; a week without data is a gap in the line.
        </p>
        <div className="grid gap-4 lg:grid-cols-2">
          {METRICS.map((m) => (
            <MetricTrend key={m} metric={m} series={report.series} device={device} />
          ))}
        </div>
      </section>
    </>
  );
}

function MetricCard({ metric, report }: { metric: Metric; report: FieldDataReport }) {
  const value = report.latest[metric];
  const rating = ratingOf(metric, value);
  const names = METRIC_NAMES[metric];
  return (
    <li className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-sm font-semibold text-zinc-900">
        {names.short} <span className="font-normal text-zinc-600">{names.long}</span>
      </p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-2xl font-semibold text-zinc-900 tabular-nums">
          {formatMetric(metric, value)}
        </span>
        {rating ? <Badge tone={RATING_TONES[rating]}>{RATING_WORDS[rating]}</Badge> : null}
      </p>
      <p className="mt-1 text-xs text-zinc-600">{bandsDescription(metric)}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-zinc-600">7 days</dt>
        <dd className="text-zinc-800 tabular-nums">{formatDelta(metric, report.deltas.d7[metric])}</dd>
        <dt className="text-zinc-600">28 days</dt>
        <dd className="text-zinc-800 tabular-nums">{formatDelta(metric, report.deltas.d28[metric])}</dd>
      </dl>
    </li>
  );
}

/** The good and poor bounds as labelled lines: the bands read without telling colours apart. */
const referencesOf = (metric: Metric) => [
  {
    value: RATING_BOUNDS[metric].good,
    label: `good ≤ ${formatTick(metric, RATING_BOUNDS[metric].good)}`,
    color: '#15803d',
  },
  {
    value: RATING_BOUNDS[metric].needsImprovement,
    label: `poor > ${formatTick(metric, RATING_BOUNDS[metric].needsImprovement)}`,
    color: '#b91c1c',
  },
];

function MetricTrend({ metric, series, device }: { metric: Metric; series: FieldWindow[]; device: string }) {
  const names = METRIC_NAMES[metric];
  return (
    <div className="min-w-0 space-y-2">
      <TrendLine
        title={`${names.short} (${names.long})`}
        summary={trendSummary(metric, series)}
        points={series.map((w) => ({ key: w.periodEnd, at: dayMs(w.periodEnd), value: w[metric] }))}
        formatValue={(v) => formatMetric(metric, v)}
        formatTick={(v) => formatTick(metric, v)}
        formatAt={(at) => `28 days to ${formatDay(at)}`}
        references={referencesOf(metric)}
        domain={metric === 'cls' ? [0, clsAxisTop(series)] : undefined}
        heightClass="h-52"
      />
      <TableDisclosure summary={<>{names.short} as a table</>}>
        <Table caption={`${names.short} p75 on ${device} by 28-day window, newest first`}>
          <thead>
            <tr>
              <Th>Window ending</Th>
              <Th className="text-right">p75</Th>
              <Th>Rating</Th>
            </tr>
          </thead>
          <tbody>
            {[...series].reverse().map((w) => {
              const rating = ratingOf(metric, w[metric]);
              return (
                <tr key={w.periodEnd}>
                  <Td className="whitespace-nowrap">{formatDay(w.periodEnd)}</Td>
                  <Td className="text-right whitespace-nowrap tabular-nums">
                    {formatMetric(metric, w[metric])}
                  </Td>
                  <Td>{rating ? RATING_WORDS[rating] : '—'}</Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </TableDisclosure>
    </div>
  );
}

/** A tick, a cross or a dash beside the verdict's words: its shape says it as well as its colour. */
function VerdictIcon({ tone }: { tone: 'success' | 'danger' | 'neutral' }) {
  const path =
    tone === 'success' ? 'M4 10.5l4 4 8-9' : tone === 'danger' ? 'M5 5l10 10M15 5L5 15' : 'M5 10h10';
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
    >
      <path d={path} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
