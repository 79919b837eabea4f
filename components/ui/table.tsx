import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cx } from './cx';
import { ScrollBox } from './scroll-box';

/**
 * A data table with a caption (visually hidden unless `showCaption`), scrolling horizontally when
 * narrow; a string caption also names the scroll region keyboard users focus to scroll it.
 */
export function Table({
  caption,
  showCaption,
  children,
}: {
  caption: ReactNode;
  showCaption?: boolean;
  children: ReactNode;
}) {
  return (
    // `relative` keeps visually hidden text (absolutely positioned) inside the scroll box: a hidden
    // "Actions" header in a column scrolled out of view would otherwise widen the whole page.
    <ScrollBox
      label={typeof caption === 'string' ? caption : 'Table'}
      className="relative rounded-lg border border-zinc-200 bg-white shadow-xs"
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption
          className={showCaption ? 'px-4 py-3 text-left text-sm font-semibold text-zinc-900' : 'sr-only'}
        >
          {caption}
        </caption>
        {children}
      </table>
    </ScrollBox>
  );
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={cx(
        'border-b border-zinc-200 bg-zinc-50 px-4 py-2.5 text-xs font-semibold tracking-wide text-zinc-700 uppercase',
        className,
      )}
      {...rest}
    />
  );
}

/** The header of a row-actions column: named for screen readers, blank on screen. */
export function ActionsTh() {
  return (
    <Th>
      <span className="sr-only">Actions</span>
    </Th>
  );
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={cx('border-b border-zinc-100 px-4 py-3 align-top text-zinc-800', className)} {...rest} />
  );
}
