'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from './cx';

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
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {items.map((item, i) => {
          const nested = item.nested ?? i > 0;
          const current = pathname === item.href || (nested && pathname.startsWith(`${item.href}/`));
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? 'page' : undefined}
                className={cx(
                  'block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                  current
                    ? 'border-accent-600 text-zinc-900'
                    : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900',
                )}
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
