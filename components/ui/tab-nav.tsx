'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from './cx';
import { FoldButton, useFold } from './fold';
import { tabClass, tabRowClass } from './tab-style';

export interface TabNavItem {
  href: string;
  label: string;
  /** Also current on the pages below it (default true, except for the first, the section's root). */
  nested?: boolean;
}

/**
 * Sections of one thing as a navigation bar styled like tabs, each its own URL: the current one is
 * marked with `aria-current="page"`, and stays current on the pages below it when `nested`.
 *
 * `compact`: below 640 px the bar folds into one button naming the current section (`useFold`),
 * which opens the list as a column. From 640 px the bar shows as usual and the button is gone.
 */
export function TabNav({
  label,
  items,
  className,
  compact = false,
}: {
  label: string;
  items: TabNavItem[];
  className?: string;
  compact?: boolean;
}) {
  const pathname = usePathname();
  const fold = useFold();

  const isCurrent = (item: TabNavItem, i: number) => {
    const nested = item.nested ?? i > 0;
    return pathname === item.href || (nested && pathname.startsWith(`${item.href}/`));
  };
  const current = items.find(isCurrent);

  return (
    <nav
      aria-label={label}
      className={cx('border-b border-zinc-200', className)}
      onKeyDown={compact ? fold.onKeyDown : undefined}
    >
      {compact ? <FoldButton fold={fold} prefix="Section" current={current?.label} /> : null}
      <ul
        id={fold.listId}
        className={
          compact
            ? // Folded: hidden below 640 px until opened, then one section a line.
              cx(
                'flex-wrap gap-x-1 sm:-mb-px sm:flex sm:flex-row',
                fold.open ? 'mb-2 flex flex-col' : 'hidden',
              )
            : tabRowClass
        }
      >
        {items.map((item, i) => {
          const here = isCurrent(item, i);
          return (
            <li key={item.href}>
              <Link href={item.href} aria-current={here ? 'page' : undefined} className={tabClass(here)}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
