'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from './cx';
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
 */
export function TabNav({
  label,
  items,
  className,
}: {
  label: string;
  items: TabNavItem[];
  className?: string;
}) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className={cx('border-b border-zinc-200', className)}>
      <ul className={tabRowClass}>
        {items.map((item, i) => {
          const nested = item.nested ?? i > 0;
          const current = pathname === item.href || (nested && pathname.startsWith(`${item.href}/`));
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? 'page' : undefined}
                className={tabClass(current)}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
