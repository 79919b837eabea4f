import Link from 'next/link';
import { formatNumber } from '@/lib/format';
import { buttonClass } from './button';
import { type QueryState, withQuery } from './query-href';

/** Earlier pages a "Previous" link can go back to (the URL carries their cursors). */
const TRAIL = 20;

/**
 * Paging along a keyset cursor: "Previous" and "Next" links that keep the filters and the sort. The
 * URL carries the current `cursor`, the cursors of up to 20 earlier pages (`prev`, so Previous
 * needs no backwards query) and the page number, which only numbers the rows shown.
 */
export function Pager({
  label,
  path,
  query,
  shown,
  pageSize,
  nextCursor,
  total,
  param = 'cursor',
  noun = ['row', 'rows'],
  countedAbove = false,
}: {
  /** Names the navigation landmark: "Pages of crawled URLs". */
  label: string;
  path: string;
  query: QueryState;
  /** Rows on this page. */
  shown: number;
  pageSize: number;
  nextCursor: string | null;
  /** Rows in all, when the list knows it. */
  total?: number;
  /** The cursor's query name, for a second paged list on one page (`inlinksCursor`). */
  param?: string;
  /** What the rows are, singular and plural: "6 targets", "Targets 1–50 of 120". */
  noun?: readonly [string, string];
  /**
   * The page already says how many rows match (a result count above the table that a filter
   * changes): a single page then adds no second "6 targets." under it.
   */
  countedAbove?: boolean;
}) {
  const keys =
    param === 'cursor'
      ? { cursor: 'cursor', prev: 'prev', page: 'page' }
      : { cursor: param, prev: `${param}Prev`, page: `${param}Page` };
  const page = Math.max(1, Number.parseInt(query[keys.page] ?? '1', 10) || 1);
  const trail = query[keys.prev]?.split(',') ?? [];
  const first = (page - 1) * pageSize + 1;
  const canGoBack = page > 1;
  if (!canGoBack && nextCursor === null) {
    return total === undefined || countedAbove ? null : (
      <p className="text-sm text-zinc-600">
        {formatNumber(total)} {total === 1 ? noun[0] : noun[1]}.
      </p>
    );
  }
  const firstPage = withQuery(path, query, {
    [keys.cursor]: undefined,
    [keys.prev]: undefined,
    [keys.page]: undefined,
  });
  const previous =
    canGoBack && trail.length > 0
      ? withQuery(path, query, {
          [keys.cursor]: trail.at(-1) === '-' ? undefined : trail.at(-1),
          [keys.prev]: trail.slice(0, -1).join(',') || undefined,
          [keys.page]: page - 1 > 1 ? String(page - 1) : undefined,
        })
      : null;
  const next =
    nextCursor === null
      ? null
      : withQuery(path, query, {
          [keys.cursor]: nextCursor,
          [keys.prev]: [...trail, query[keys.cursor] ?? '-'].slice(-TRAIL).join(','),
          [keys.page]: String(page + 1),
        });
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-zinc-600">
        {noun[1].charAt(0).toUpperCase()}
        {noun[1].slice(1)} {formatNumber(first)}–{formatNumber(first + shown - 1)}
        {total === undefined ? '' : ` of ${formatNumber(total)}`}
      </p>
      <ul className="flex items-center gap-2">
        {canGoBack && (page > 2 || !previous) ? (
          <li>
            <Link href={firstPage} className={buttonClass('secondary', 'sm')}>
              First page
            </Link>
          </li>
        ) : null}
        {previous ? (
          <li>
            <Link href={previous} className={buttonClass('secondary', 'sm')}>
              <span aria-hidden="true">←</span> Previous
            </Link>
          </li>
        ) : null}
        {next ? (
          <li>
            <Link href={next} className={buttonClass('secondary', 'sm')}>
              Next <span aria-hidden="true">→</span>
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
