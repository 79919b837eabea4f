'use client';

import { useId, useMemo, useState } from 'react';
import { Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { HourlyBucket } from '@/components/api/types';
import { ChartLegend } from '@/components/ui/chart-legend';
import { Choice } from '@/components/ui/choice';
import { chartAxis, chartLine, LineChartFrame } from '@/components/ui/line-chart-frame';
import { Table, Td, Th } from '@/components/ui/table';
import { TableDisclosure } from '@/components/ui/table-disclosure';
import { formatDayAndTime, formatMonthDay, formatNumber } from '@/lib/format';
import { REGIONS, type Region } from '@/lib/uptime/types';
import { HOUR_MS, latencySeries, peakOf } from './hours';
import { usePlaces } from './places';
import { formatMs } from './words';

export const RANGES = [
  { hours: 24, label: '24 hours' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
  { hours: 2160, label: '90 days' },
] as const;
export type RangeHours = (typeof RANGES)[number]['hours'];

/** Each region's line differs in colour and in dash pattern, so the chart reads without colour too. */
const LINE: Record<Region, { color: string; dash?: string }> = {
  na: { color: '#1d4ed8' },
  eu: { color: '#c2410c', dash: '8 4' },
  as: { color: '#047857', dash: '2 3' },
  oc: { color: '#7e22ce', dash: '10 3 2 3' },
};

const hourOnly = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const hourLabel = (ms: number) => `${formatDayAndTime(ms)} UTC`;

/**
 * Per-region latency by closed hour, p50 or p95, over 24 hours to 90 days (recharts). The chart is a
 * named image whose caption gives the peak and the latest hour; every figure is also in a table
 * behind a disclosure (built only when opened: 90 days is 2,160 rows).
 */
export function LatencyChart({
  range,
  onRange,
  buckets,
}: {
  range: RangeHours;
  onRange: (hours: RangeHours) => void;
  /** The range's buckets; undefined while they load. */
  buckets: HourlyBucket[] | undefined;
}) {
  const [percentile, setPercentile] = useState<'p50Ms' | 'p95Ms'>('p95Ms');
  const places = usePlaces();
  const regionNames = places.names;
  const [tableOpen, setTableOpen] = useState(false);
  const captionId = useId();
  const name = useId();
  const points = useMemo(() => (buckets ? latencySeries(buckets, percentile) : []), [buckets, percentile]);
  const pLabel = percentile === 'p50Ms' ? 'p50 (median)' : 'p95';
  const rangeLabel = RANGES.find((r) => r.hours === range)?.label ?? `${range} hours`;
  const peak = peakOf(points);
  const latest = points.at(-1);
  const summary =
    points.length === 0
      ? ''
      : `${pLabel} latency per ${places.unit} by hour over the last ${rangeLabel}. Highest: ${formatMs(peak?.ms)} in ${peak ? regionNames[peak.region] : '—'} at ${peak ? hourLabel(peak.at) : '—'}. Latest hour (${latest ? hourLabel(latest.bucketStart) : '—'}): ${REGIONS.map((r) => `${regionNames[r]} ${formatMs(latest?.[r])}`).join(', ')}.`;
  // The whole range, ending with the last closed hour: a monitor younger than the range shows
  // where its data starts instead of stretching a few hours across the chart.
  const lastHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - HOUR_MS;
  const domain: [number, number] = [lastHour - (range - 1) * HOUR_MS, lastHour];
  // Every 3 hours over a day, daily over a week, every 5 or 15 days over 30 or 90: about 8 ticks.
  const step = (range <= 24 ? 3 : range <= 168 ? 24 : range <= 720 ? 120 : 360) * HOUR_MS;
  const ticks = Array.from(
    { length: Math.floor((range - 1) / (step / HOUR_MS)) + 1 },
    (_, i) => lastHour - i * step,
  ).reverse();
  const tick = (ms: number) =>
    range <= 24 ? hourOnly.format(ms) : range <= 168 ? formatDayAndTime(ms) : formatMonthDay(ms);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-x-8 gap-y-3">
        <Choice
          legend="Range"
          name={`${name}-range`}
          value={String(range)}
          options={RANGES.map((r) => ({ value: String(r.hours), label: r.label }))}
          onChange={(v) => onRange(Number(v) as RangeHours)}
        />
        <Choice
          legend="Percentile"
          name={`${name}-percentile`}
          value={percentile}
          options={[
            { value: 'p50Ms', label: 'p50 (median)' },
            { value: 'p95Ms', label: 'p95' },
          ]}
          onChange={(v) => setPercentile(v as 'p50Ms' | 'p95Ms')}
        />
      </div>
      {buckets === undefined ? (
        <div aria-hidden="true" className="h-64 w-full animate-pulse rounded-md bg-zinc-200" />
      ) : points.length === 0 ? (
        <p className="text-sm text-zinc-600">
          No closed hour with probes in the last {rangeLabel} yet: hours are summed up when they end, so the
          first point appears after the monitor&apos;s first full hour.
        </p>
      ) : (
        <figure className="space-y-3">
          <LineChartFrame
            data={points}
            labelledBy={captionId}
            margin={{ top: 8, right: 24, bottom: 0, left: 0 }}
            heightClass="h-64"
          >
            <XAxis
              dataKey="bucketStart"
              type="number"
              scale="time"
              domain={domain}
              ticks={ticks}
              padding={{ left: 8, right: 8 }}
              allowDataOverflow
              tickFormatter={tick}
              {...chartAxis}
              minTickGap={24}
            />
            <YAxis tickFormatter={(ms: number) => formatMs(ms)} {...chartAxis} width={72} />
            <Tooltip
              formatter={(value, key) => [formatMs(Number(value)), regionNames[key as Region] ?? key]}
              labelFormatter={(ms) => hourLabel(Number(ms))}
            />
            {REGIONS.map((r) => (
              <Line
                key={r}
                {...chartLine}
                dataKey={r}
                name={r}
                stroke={LINE[r].color}
                strokeDasharray={LINE[r].dash}
                dot={points.length <= 48 ? { r: 2 } : false}
                connectNulls={false}
              />
            ))}
          </LineChartFrame>
          <ChartLegend items={REGIONS.map((r) => ({ key: r, label: regionNames[r], ...LINE[r] }))} />
          <figcaption id={captionId} className="text-sm text-zinc-600">
            {summary}
          </figcaption>
        </figure>
      )}
      {buckets && buckets.length > 0 ? (
        <TableDisclosure summary="Latency as a table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
          {tableOpen ? <LatencyTable buckets={buckets} rangeLabel={rangeLabel} /> : null}
        </TableDisclosure>
      ) : null}
    </div>
  );
}

/** Every closed hour of the range, newest first: p50 / p95 per region and the checks that failed. */
function LatencyTable({ buckets, rangeLabel }: { buckets: HourlyBucket[]; rangeLabel: string }) {
  const regionNames = usePlaces().names;
  const rows = useMemo(() => {
    const byHour = new Map<
      number,
      { start: number; total: number; failed: number; regions: Partial<Record<Region, HourlyBucket>> }
    >();
    for (const b of buckets) {
      const row = byHour.get(b.bucketStart) ?? { start: b.bucketStart, total: 0, failed: 0, regions: {} };
      row.total += b.total;
      row.failed += b.failed;
      row.regions[b.region] = b;
      byHour.set(b.bucketStart, row);
    }
    return [...byHour.values()].sort((a, b) => b.start - a.start);
  }, [buckets]);
  return (
    <Table caption={`Latency by hour over the last ${rangeLabel}, newest first: p50 / p95 per region`}>
      <thead>
        <tr>
          <Th>Hour (UTC)</Th>
          {REGIONS.map((r) => (
            <Th key={r} className="text-right">
              {regionNames[r]} p50 / p95
            </Th>
          ))}
          <Th className="text-right">Failed checks</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.start}>
            <Td className="whitespace-nowrap">
              {formatDayAndTime(row.start)}–{hourOnly.format(new Date(row.start + HOUR_MS))}
            </Td>
            {REGIONS.map((r) => {
              const b = row.regions[r];
              return (
                <Td key={r} className="text-right whitespace-nowrap tabular-nums">
                  {b ? `${formatMs(b.p50Ms)} / ${formatMs(b.p95Ms)}` : '—'}
                </Td>
              );
            })}
            <Td className="text-right tabular-nums">
              {formatNumber(row.failed)} of {formatNumber(row.total)}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
