import Form from 'next/form';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Button } from './button';
import { CollapsibleFilters } from './collapsible-filters';
import { SelectField } from './field';
import { type QueryState, withQuery } from './query-href';

/**
 * A table's filters as a GET form (a search landmark): submitting puts them in the page's URL, so
 * the filtered view works without script, survives a reload and can be shared. The sort in effect,
 * and anything else in `keep` (the run shown), rides along; paging starts again at the first page.
 */
export function FilterForm({
  label,
  path,
  keep,
  sorting,
  active = false,
  children,
}: {
  label: string;
  path: string;
  /** Query values the form keeps as they are (the run shown; the sort, without `sorting`). */
  keep: QueryState;
  /**
   * The table's sorts as "Sort by" and "Order" fields, with the ones in effect selected: the way to
   * sort where the table is shown as cards, whose headers are not there to click.
   */
  sorting?: { options: readonly (readonly [string, string])[]; sort: string; order: 'asc' | 'desc' };
  /** Filters are in effect: the form shows at any width (on a phone it is otherwise folded away). */
  active?: boolean;
  children: ReactNode;
}) {
  const kept = Object.entries(keep).filter(
    (entry): entry is [string, string] =>
      Boolean(entry[1]) && !(sorting && (entry[0] === 'sort' || entry[0] === 'order')),
  );
  return (
    <CollapsibleFilters active={active} summary={active ? '(in effect)' : undefined}>
      <Form
        action={path}
        scroll={false}
        role="search"
        aria-label={label}
        className="flex flex-wrap items-end gap-x-4 gap-y-3 p-4"
      >
        {kept.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {children}
        {sorting ? (
          <>
            <SelectField label="Sort by" name="sort" defaultValue={sorting.sort} className="w-44">
              {sorting.options.map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </SelectField>
            <SelectField label="Order" name="order" defaultValue={sorting.order} className="w-36">
              <option value="asc">Ascending</option>
              <option value="desc">Descending</option>
            </SelectField>
          </>
        ) : null}
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary">
            Apply
          </Button>
          <Link
            href={withQuery(path, Object.fromEntries(kept))}
            scroll={false}
            className="text-sm font-medium text-accent-700 hover:underline"
          >
            Clear filters
          </Link>
        </div>
      </Form>
    </CollapsibleFilters>
  );
}
