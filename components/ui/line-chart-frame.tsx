'use client';

import type { ReactNode } from 'react';
import { CartesianGrid, LineChart, ResponsiveContainer } from 'recharts';

/** The axes' look on every chart: zinc ticks (readable contrast at 12 px) and a light axis line. */
export const chartAxis = { tick: { fill: '#52525b', fontSize: 12 }, stroke: '#a1a1aa' } as const;

/** Every series line: smooth, 2 px, drawn at once (no animation to wait for or to distract). */
export const chartLine = { type: 'monotone', strokeWidth: 2, isAnimationActive: false } as const;

/**
 * A recharts line chart as the dashboard draws them: a named image (`labelledBy`: the caption that
 * sums it up, so nothing is only in the picture; recharts' own keyboard layer is off) filling its
 * box, on a dashed grid. The children are the chart's axes, tooltip and lines.
 */
export function LineChartFrame({
  data,
  labelledBy,
  margin,
  heightClass,
  children,
}: {
  data: readonly object[];
  labelledBy: string;
  margin: { top: number; right: number; bottom: number; left: number };
  /** The drawing's height (a Tailwind class). */
  heightClass: string;
  children: ReactNode;
}) {
  return (
    <div role="img" aria-labelledby={labelledBy} className={`${heightClass} w-full min-w-0`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data as object[]} margin={margin} accessibilityLayer={false}>
          <CartesianGrid stroke="#e4e4e7" strokeDasharray="3 3" />
          {children}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
