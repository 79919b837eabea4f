import Link from 'next/link';
import type { ReactNode } from 'react';
import { cx } from './cx';
import { type QueryState, withQuery } from './query-href';
import { Th } from './table';

/**
 * A column header that sorts the table by following a link (the sort is in the page's URL, so it
 * works without script, survives a reload and can be shared). The sorted column says so with
 * `aria-sort`; choosing it again reverses the order. Sorting goes back to the first page.
 */
export function SortTh({
  children,
  column,
  sort,
  order,
  firstOrder = 'asc',
  path,
  query,
  className,
}: {
  children: ReactNode;
  /** The `sort` value this column sets. */
  column: string;
  /** The sort and order in effect. */
  sort: string;
  order: 'asc' | 'desc';
  /** The order a first click on this column asks for (desc for counts, where more comes first). */
  firstOrder?: 'asc' | 'desc';
  path: string;
  query: QueryState;
  className?: string;
}) {
  const active = sort === column;
  const next = active ? (order === 'asc' ? 'desc' : 'asc') : firstOrder;
  const href = withQuery(path, query, {
    sort: column,
    order: next,
    cursor: undefined,
    prev: undefined,
    page: undefined,
  });
  return (
    <Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined} className={className}>
      <Link
        href={href}
        scroll={false}
        className={cx(
          'inline-flex items-center gap-1 rounded-sm uppercase hover:text-zinc-900 hover:underline',
          active ? 'text-zinc-900' : undefined,
        )}
      >
        {children}
        <span aria-hidden="true" className={active ? undefined : 'text-zinc-400'}>
          {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </Link>
    </Th>
  );
}
