import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/surface';
import { formatDateTime, formatNumber } from '@/lib/format';

/**
 * "New since the previous run" and "fixed since the previous run" for a report: the two counts, and
 * each list behind a disclosure. Without a previous completed crawl it says nothing was compared,
 * rather than showing two zeros that read as "nothing changed".
 */
export function RunChanges<T>({
  what,
  previousRunId,
  previousHref,
  previousStartedAt,
  added,
  fixed,
  addedCount = added.length,
  fixedCount = fixed.length,
  item,
}: {
  /** "broken targets", "SEO issues". */
  what: string;
  previousRunId: string | null;
  /** Where the previous run's report is (the History tab's run page). */
  previousHref?: string;
  previousStartedAt?: number | null;
  added: readonly T[];
  fixed: readonly T[];
  /** How many there are in all, when the lists show only the first of them. */
  addedCount?: number;
  fixedCount?: number;
  item: (entry: T) => { key: string; node: ReactNode };
}) {
  if (previousRunId === null) {
    return (
      <p className="text-sm text-zinc-600">
        No earlier completed crawl to compare with: new and fixed {what} show from the next crawl on.
      </p>
    );
  }
  const previous = previousStartedAt
    ? `the crawl of ${formatDateTime(previousStartedAt)}`
    : 'the previous crawl';
  return (
    <div className="space-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-sm text-zinc-700">
        Since{' '}
        {previousHref ? (
          <Link href={previousHref} className="text-accent-700 underline">
            {previous}
          </Link>
        ) : (
          previous
        )}
        : <strong className="font-semibold text-zinc-900">{formatNumber(addedCount)} new</strong> and{' '}
        <strong className="font-semibold text-zinc-900">{formatNumber(fixedCount)} fixed</strong> {what}.
      </p>
      <ChangeList title={`New ${what}`} tone="danger" entries={added} total={addedCount} item={item} />
      <ChangeList title={`Fixed ${what}`} tone="success" entries={fixed} total={fixedCount} item={item} />
    </div>
  );
}

function ChangeList<T>({
  title,
  tone,
  entries,
  total,
  item,
}: {
  title: string;
  tone: 'danger' | 'success';
  entries: readonly T[];
  total: number;
  item: (entry: T) => { key: string; node: ReactNode };
}) {
  if (entries.length === 0) return null;
  return (
    <details>
      <summary className="cursor-pointer text-sm font-medium text-zinc-800">
        {title} <Badge tone={tone}>{formatNumber(total)}</Badge>
      </summary>
      {total > entries.length ? (
        <p className="mt-2 text-sm text-zinc-600">
          The first {formatNumber(entries.length)} of {formatNumber(total)}, in URL order.
        </p>
      ) : null}
      <ul className="mt-2 space-y-1 pl-1 text-sm">
        {entries.map((entry) => {
          const { key, node } = item(entry);
          return (
            <li key={key} className="break-all">
              {node}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
