import type { ReactNode, SyntheticEvent } from 'react';

/**
 * A chart's figures as a table, behind a disclosure under the drawing: the chart's caption sums it
 * up, and every figure is here for whoever wants them (or cannot see the picture). `onToggle` lets a
 * long table be built only once opened.
 */
export function TableDisclosure({
  summary,
  onToggle,
  children,
}: {
  /** "Scores as a table". */
  summary: ReactNode;
  onToggle?: (event: SyntheticEvent<HTMLDetailsElement>) => void;
  children: ReactNode;
}) {
  return (
    <details onToggle={onToggle}>
      <summary className="cursor-pointer text-sm font-medium text-zinc-800">{summary}</summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}
