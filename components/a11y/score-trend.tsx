'use client';

import { useId } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDateTime } from '@/components/ui/format';
import { Table, Td, Th } from '@/components/ui/table';
import type { A11yTrendPoint as TrendPoint } from '@/lib/dashboard/a11y';

const shortDate = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayAndTime = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/**
 * The accessibility score of recent scanning runs as a line chart. The chart is a named image for
 * assistive technology (its summary says first, latest, lowest and highest), and the same figures
 * are a data table behind a disclosure: nothing is only in the drawing.
 */
export function ScoreTrend({ points }: { points: TrendPoint[] }) {
  const summaryId = useId();
  if (points.length === 0) return null;
  if (points.length === 1) {
    return (
      <p className="text-sm text-zinc-600">
        One scan so far (score {points[0]!.score}); the trend appears after the next one.
      </p>
    );
  }
  const scores = points.map((p) => p.score);
  const first = points[0]!;
  const latest = points.at(-1)!;
  const summary = `Accessibility score over the last ${points.length} scans: ${first.score} on ${formatDateTime(first.startedAt)}, ${latest.score} on ${formatDateTime(latest.startedAt)}; lowest ${Math.min(...scores)}, highest ${Math.max(...scores)}.`;
  // Several scans on one day would repeat the date on the axis: the time tells them apart then.
  const days = points.map((p) => shortDate.format(new Date(p.startedAt)));
  const sameDay = new Set(days).size < days.length;
  const data = points.map((p, i) => ({
    ...p,
    label: sameDay ? dayAndTime.format(new Date(p.startedAt)) : days[i],
  }));
  return (
    <figure className="space-y-3">
      <div role="img" aria-labelledby={summaryId} className="h-56 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={data}
            margin={{ top: 8, right: 16, bottom: 0, left: -16 }}
            accessibilityLayer={false}
          >
            <CartesianGrid stroke="#e4e4e7" strokeDasharray="3 3" />
            <XAxis
              dataKey="label"
              tick={{ fill: '#52525b', fontSize: 12 }}
              stroke="#a1a1aa"
              minTickGap={16}
            />
            <YAxis
              domain={[0, 100]}
              ticks={[0, 25, 50, 75, 100]}
              tick={{ fill: '#52525b', fontSize: 12 }}
              stroke="#a1a1aa"
            />
            <Tooltip
              formatter={(value) => [value, 'Score']}
              labelFormatter={(_, payload) => {
                const point = payload?.[0]?.payload as TrendPoint | undefined;
                return point ? formatDateTime(point.startedAt) : '';
              }}
            />
            <Line
              type="monotone"
              dataKey="score"
              stroke="#2563eb"
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption id={summaryId} className="text-sm text-zinc-600">
        {summary}
      </figcaption>
      <details>
        <summary className="cursor-pointer text-sm font-medium text-zinc-800">Scores as a table</summary>
        <div className="mt-3">
          <Table caption="Accessibility score by scan, oldest first">
            <thead>
              <tr>
                <Th>Scan started</Th>
                <Th>Kind</Th>
                <Th className="text-right">Score</Th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.runId}>
                  <Td className="whitespace-nowrap">{formatDateTime(p.startedAt)}</Td>
                  <Td>{p.kind === 'a11y' ? 'Accessibility scan' : 'Crawl with scan'}</Td>
                  <Td className="text-right tabular-nums">{p.score}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      </details>
    </figure>
  );
}
