'use client';

import { useId } from 'react';
import { Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDateTime } from '@/lib/format';
import { chartAxis, chartLine, LineChartFrame } from './line-chart-frame';
import { timeAxis } from './time-axis';

export interface TrendLinePoint {
  /** Unique per point (a run id). */
  key: string;
  /** When (epoch milliseconds): the axis label and the tooltip. */
  at: number;
  /** Null: no value at this point (drawn as a gap). */
  value: number | null;
}

/**
 * One measure over time as a line chart (recharts). The drawing is a named image whose text
 * alternative is `summary`, shown as its caption, so nothing is only in the picture; the figures
 * themselves belong in a table beside it. The x axis is time-scaled (`timeAxis`).
 */
export function TrendLine({
  title,
  summary,
  points,
  showTitle = true,
  domain,
  color = '#2563eb',
  heightClass = 'h-44',
  formatValue,
  formatTick = formatValue,
  formatAt = formatDateTime,
  references = [],
}: {
  /** Names the measure: the card's heading (when shown) and the tooltip's label. */
  title: string;
  /** False where a heading above already names the chart. */
  showTitle?: boolean;
  summary: string;
  points: TrendLinePoint[];
  /** The value axis; default from zero to the data's maximum. */
  domain?: [number, number];
  color?: string;
  /** The drawing's height (a Tailwind class). */
  heightClass?: string;
  /** A value in the tooltip (units, decimals); default the number as is. */
  formatValue?: (value: number) => string;
  /** A value on the axis, where room is short; default `formatValue`. */
  formatTick?: (value: number) => string;
  /** When a point is, in the tooltip; default the date and time. */
  formatAt?: (at: number) => string;
  /**
   * Horizontal lines at values that matter (a rating's bounds), each labelled in the drawing so
   * the line does not rely on its colour; the value axis stretches to show them.
   */
  references?: Array<{ value: number; label: string; color: string }>;
}) {
  const summaryId = useId();
  const axis = timeAxis(points.map((p) => p.at));
  return (
    <figure className="min-w-0 rounded-lg border border-zinc-200 bg-white p-4 shadow-xs">
      {showTitle ? <p className="mb-2 text-sm font-semibold text-zinc-900">{title}</p> : null}
      <LineChartFrame
        data={points}
        labelledBy={summaryId}
        // Room on the right for the reference lines' labels, beside the plot rather than over the data.
        margin={{ top: 8, right: references.length > 0 ? 100 : 12, bottom: 0, left: -12 }}
        heightClass={heightClass}
      >
        {/* Time-scaled: points sit as far apart as the time between them, so gaps show as gaps. */}
        <XAxis
          dataKey="at"
          type="number"
          scale="time"
          domain={axis.domain}
          ticks={axis.ticks}
          tickFormatter={axis.format}
          padding={{ left: 12, right: 12 }}
          {...chartAxis}
          minTickGap={16}
        />
        <YAxis
          domain={domain ?? [0, 'auto']}
          // Plain counts tick on whole numbers; a formatted measure (a CLS of 0.1) may need decimals.
          allowDecimals={formatTick !== undefined}
          tickFormatter={formatTick}
          {...chartAxis}
          width={formatTick ? 64 : undefined}
        />
        <Tooltip
          formatter={(value) => [formatValue ? formatValue(Number(value)) : value, title]}
          labelFormatter={(_, payload) => {
            const point = payload?.[0]?.payload as TrendLinePoint | undefined;
            return point ? formatAt(point.at) : '';
          }}
        />
        {references.map((r) => (
          <ReferenceLine
            key={r.value}
            y={r.value}
            stroke={r.color}
            strokeDasharray="4 4"
            ifOverflow="extendDomain"
            label={{ value: r.label, position: 'right', fill: '#3f3f46', fontSize: 11 }}
          />
        ))}
        <Line {...chartLine} dataKey="value" stroke={color} dot={{ r: 3 }} connectNulls={false} />
      </LineChartFrame>
      <figcaption id={summaryId} className="mt-2 text-xs text-zinc-600">
        {summary}
      </figcaption>
    </figure>
  );
}
