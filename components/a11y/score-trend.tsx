'use client';

import { Table, Td, Th } from '@/components/ui/table';
import { TableDisclosure } from '@/components/ui/table-disclosure';
import { TrendLine } from '@/components/ui/trend-line';
import type { A11yTrendPoint as TrendPoint } from '@/lib/dashboard/a11y';
import { formatDateTime } from '@/lib/format';

/**
 * The accessibility score of recent scanning runs as a line chart. The chart is a named image for
 * assistive technology (its summary says first, latest, lowest and highest), and the same figures
 * are a data table behind a disclosure: nothing is only in the drawing.
 */
export function ScoreTrend({ points }: { points: TrendPoint[] }) {
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
  return (
    <div className="space-y-3">
      <TrendLine
        title="Score"
        showTitle={false}
        summary={summary}
        points={points.map((p) => ({ key: p.runId, at: p.startedAt, value: p.score }))}
        domain={[0, 100]}
        heightClass="h-56"
      />
      <TableDisclosure summary="Scores as a table">
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
      </TableDisclosure>
    </div>
  );
}
