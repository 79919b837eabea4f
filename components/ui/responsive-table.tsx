import { Fragment, type ReactNode } from 'react';
import { cx } from './cx';
import type { QueryState } from './query-href';
import { SortTh } from './sort-th';
import { Table, Td, Th } from './table';

export type Column<T> = {
  key: string;
  /** The column header, and each card's label for the value. */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Numbers: right-aligned in the table. */
  numeric?: boolean;
  /** Extra classes for the table cell (e.g. whitespace-nowrap). */
  className?: string;
  /** The `sort` value this column's header sets, when the table sorts (see `sorting`). */
  sort?: string;
  /** The order a first click on this column asks for (desc for counts, where more comes first). */
  firstOrder?: 'asc' | 'desc';
};

/** A table sorted through its page's URL: the sort in effect and where the header links point. */
export type TableSorting = { sort: string; order: 'asc' | 'desc'; path: string; query: QueryState };

/** A column's header cell: a sorting link (SortTh) when the column and the table sort, else plain. */
function HeaderCell<T>({ column, sorting }: { column: Column<T>; sorting?: TableSorting }) {
  const className = column.numeric ? 'text-right' : undefined;
  if (!sorting || column.sort === undefined) return <Th className={className}>{column.header}</Th>;
  return (
    <SortTh column={column.sort} firstOrder={column.firstOrder} {...sorting} className={className}>
      {column.header}
    </SortTh>
  );
}

/**
 * A table where there is room, a list of cards where there is not (the space it is given is under
 * 42rem, 672 px: a phone, or a tablet beside the navigation), from one
 * description of the columns: at 390 px every value and every control of a row stays in view without
 * scrolling sideways (a wide table in a scroll box hides its last columns, often the row's buttons,
 * past the edge). Both are rendered and CSS shows one; the other is display: none, so it is neither
 * seen, nor focusable, nor in the accessibility tree. Cells must therefore not carry ids (each
 * appears twice): label controls by aria-label, find a row's button by a data attribute.
 * A plain component, so server components can pass their `cell` functions.
 *
 * The card: `title` on top (the row's name or link), the other columns as label and value, then
 * `actions`; `expanded` (an editor opened from the row) goes under the row or inside its card.
 * With `sorting`, the table's headers of columns that name a `sort` are sorting links; the cards
 * have no headers, so a page that sorts offers its sort in a form as well (a "Sort by" field).
 */
export function ResponsiveTable<T>({
  caption,
  rows,
  rowKey,
  title,
  columns,
  actions,
  expanded,
  sorting,
}: {
  caption: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  title: Column<T>;
  columns: Column<T>[];
  actions?: (row: T) => ReactNode;
  expanded?: (row: T) => ReactNode;
  sorting?: TableSorting;
}) {
  const span = 1 + columns.length + (actions ? 1 : 0);
  return (
    <div className="@container">
      <ul aria-label={caption} className="space-y-3 @2xl:hidden">
        {rows.map((row) => {
          const more = expanded?.(row);
          const buttons = actions?.(row);
          return (
            <li key={rowKey(row)} className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
              <div className="text-sm break-words">{title.cell(row)}</div>
              {columns.length > 0 ? (
                <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                  {columns.map((column) => (
                    <div key={column.key} className="min-w-0">
                      <dt className="text-xs font-medium tracking-wide text-zinc-600 uppercase">
                        {column.header}
                      </dt>
                      <dd className="mt-0.5 break-words text-zinc-800">{column.cell(row)}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              {buttons ? <div className="mt-3 flex flex-wrap gap-2">{buttons}</div> : null}
              {more ? <div className="mt-3 border-t border-zinc-200 pt-3">{more}</div> : null}
            </li>
          );
        })}
      </ul>
      <div className="hidden @2xl:block">
        <Table caption={caption}>
          <thead>
            <tr>
              <HeaderCell column={title} sorting={sorting} />
              {columns.map((column) => (
                <HeaderCell key={column.key} column={column} sorting={sorting} />
              ))}
              {actions ? (
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const more = expanded?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <tr>
                    <Td className={title.className}>{title.cell(row)}</Td>
                    {columns.map((column) => (
                      <Td
                        key={column.key}
                        className={cx(column.numeric && 'text-right tabular-nums', column.className)}
                      >
                        {column.cell(row)}
                      </Td>
                    ))}
                    {actions ? <Td className="text-right whitespace-nowrap">{actions(row)}</Td> : null}
                  </tr>
                  {more ? (
                    <tr>
                      <Td colSpan={span} className="bg-zinc-50">
                        {more}
                      </Td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </Table>
      </div>
    </div>
  );
}
