import { buttonClass } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { EmptyState } from '@/components/ui/surface';

type EmptyText = { title: string; description: string };

/**
 * A report's table, or why it has no rows: nothing to list at all (`empty`), or nothing the filters
 * match (`filteredEmpty`, which says how to get the rows back).
 */
export function ReportTable<T>({
  filtered,
  empty,
  filteredEmpty,
  ...table
}: Parameters<typeof ResponsiveTable<T>>[0] & {
  filtered: boolean;
  empty: EmptyText;
  filteredEmpty: EmptyText;
}) {
  if (table.rows.length === 0) return <EmptyState {...(filtered ? filteredEmpty : empty)} />;
  return <ResponsiveTable {...table} />;
}

/** The report filters' "Kind" field: internal, external or both. */
export function KindSelect({ value }: { value: string | undefined }) {
  return (
    <SelectField label="Kind" name="kind" defaultValue={value ?? ''} className="w-36">
      <option value="">All</option>
      <option value="internal">Internal</option>
      <option value="external">External</option>
    </SelectField>
  );
}

/** A report's CSV download; `what` finishes the name screen readers hear ("Download CSV of ..."). */
export function CsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a href={href} className={buttonClass('secondary', 'sm')} download>
      Download CSV<span className="sr-only"> of {what}</span>
    </a>
  );
}
