'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '@/components/ui/cx';
import { FoldButton, useFold } from '@/components/ui/fold';

export type NavItem = { href: string; label: string };

/** More entries than this fold into one button below 640 px; a member's one or two stay in sight. */
const FOLD_ABOVE = 3;

/**
 * The dashboard's menu: a column beside the page from 768 px, a wrapped row above it below. An
 * admin's seven entries wrapped into three rows at 390 px, so below 640 px they fold into one button
 * naming the current page (`useFold`), as a site's sections do.
 */
export function DashboardNav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const fold = useFold();
  const folds = items.length > FOLD_ABOVE;
  const isCurrent = (item: NavItem) => pathname === item.href || pathname.startsWith(`${item.href}/`);
  return (
    <nav
      aria-label="Dashboard"
      className="md:w-44 md:shrink-0"
      onKeyDown={folds ? fold.onKeyDown : undefined}
    >
      {folds ? <FoldButton fold={fold} prefix="Menu" current={items.find(isCurrent)?.label} /> : null}
      <ul
        id={fold.listId}
        className={
          folds
            ? cx('gap-1 sm:flex sm:flex-wrap md:flex-col', fold.open ? 'flex flex-col' : 'hidden')
            : 'flex flex-wrap gap-1 md:flex-col'
        }
      >
        {items.map((item) => {
          const current = isCurrent(item);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? 'page' : undefined}
                className={cx(
                  'block rounded-md px-3 py-2 text-sm font-medium',
                  current
                    ? 'bg-zinc-200/70 text-zinc-900'
                    : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
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
