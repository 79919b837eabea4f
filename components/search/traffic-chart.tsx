'use client';

import { useId, useMemo } from 'react';
import { Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { SearchAnalytics } from '@/components/api/types';
import { ChartLegend } from '@/components/ui/chart-legend';
import { chartAxis, chartLine, LineChartFrame } from '@/components/ui/line-chart-frame';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { TableDisclosure } from '@/components/ui/table-disclosure';
import { formatNumber } from '@/lib/format';
import { type DailyPoint, dailyPoints, formatCtr, formatDay, formatPosition, formatShortDay } from './words';

/** Clicks solid blue on the left axis, impressions dashed orange on the right: readable without colour. */
const LINES = {
  clicks: { label: 'Clicks', color: '#1d4ed8', dash: undefined, axis: 'left' },
  impressions: { label: 'Impressions', color: '#c2410c', dash: '8 4', axis: 'right' },
} as const;
type Measure = keyof typeof LINES;

/**
 * Clicks and impressions per day (recharts), each on its own axis (impressions run one or two
 * orders of magnitude above clicks). The drawing is a named image whose caption sums it up; every
 * day's figures, CTR and position included, are in the table behind the disclosure below.
 */
export function TrafficChart({ series, days }: { series: SearchAnalytics['series']; days: number }) {
  const captionId = useId();
  const points = useMemo(() => dailyPoints(series), [series]);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  const peak = points.reduce((best, p) => (p.clicks > best.clicks ? p : best), first);
  const summary = `Clicks and impressions per day from ${formatDay(first.day)} to ${formatDay(last.day)} (the last ${days} days with final data). Most clicks: ${formatNumber(peak.clicks)} on ${formatDay(peak.day)}. Latest day: ${formatNumber(last.clicks)} clicks, ${formatNumber(last.impressions)} impressions.`;
  return (
    <div className="space-y-4">
      <figure className="space-y-3">
        <LineChartFrame
          data={points}
          labelledBy={captionId}
          margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
          heightClass="h-64"
        >
          <XAxis dataKey="day" tickFormatter={formatShortDay} {...chartAxis} minTickGap={24} />
          <YAxis
            yAxisId="left"
            allowDecimals={false}
            tickFormatter={(n: number) => formatNumber(n)}
            {...chartAxis}
            stroke={LINES.clicks.color}
            width={56}
          />
          <YAxis
            yAxisId="right"
            orientation="right"
            allowDecimals={false}
            tickFormatter={(n: number) => formatNumber(n)}
            {...chartAxis}
            stroke={LINES.impressions.color}
            width={64}
          />
          <Tooltip
            formatter={(value, key) => [formatNumber(Number(value)), LINES[key as Measure]?.label ?? key]}
            labelFormatter={(day) => formatDay(String(day))}
          />
          {(Object.keys(LINES) as Measure[]).map((measure) => (
            <Line
              key={measure}
              {...chartLine}
              yAxisId={LINES[measure].axis}
              dataKey={measure}
              name={measure}
              stroke={LINES[measure].color}
              strokeDasharray={LINES[measure].dash}
              dot={points.length <= 31 ? { r: 2 } : false}
            />
          ))}
        </LineChartFrame>
        <ChartLegend
          items={(Object.keys(LINES) as Measure[]).map((measure) => ({
            key: measure,
            label: `${LINES[measure].label} (${LINES[measure].axis} axis)`,
            color: LINES[measure].color,
            dash: LINES[measure].dash,
          }))}
        />
        <figcaption id={captionId} className="text-sm text-zinc-600">
          {summary}
        </figcaption>
      </figure>
      <TableDisclosure summary="Daily figures as a table">
        <DailyTable points={points} />
      </TableDisclosure>
    </div>
  );
}

/** Newest day first. A day Search Console left out (no impressions) reads 0, with no CTR or position. */
function DailyTable({ points }: { points: DailyPoint[] }) {
  const rows = useMemo(() => [...points].reverse(), [points]);
  return (
    <ResponsiveTable
      caption="Search traffic per day, newest first"
      rows={rows}
      rowKey={(p) => p.day}
      title={{ key: 'day', header: 'Day', cell: (p) => formatDay(p.day), className: 'whitespace-nowrap' }}
      columns={[
        { key: 'clicks', header: 'Clicks', numeric: true, cell: (p) => formatNumber(p.clicks) },
        {
          key: 'impressions',
          header: 'Impressions',
          numeric: true,
          cell: (p) => formatNumber(p.impressions),
        },
        { key: 'ctr', header: 'CTR', numeric: true, cell: (p) => formatCtr(p.ctr) },
        { key: 'position', header: 'Avg. position', numeric: true, cell: (p) => formatPosition(p.position) },
      ]}
    />
  );
}
