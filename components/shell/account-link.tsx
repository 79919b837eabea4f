'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '@/components/ui/cx';

/**
 * The signed-in person in the header, linking to their account page: their name (or email) from
 * 640 px up, a person icon below, with the same accessible name at every width.
 */
export function AccountLink({ label }: { label: string }) {
  const here = usePathname() === '/account';
  return (
    <Link
      href="/account"
      aria-current={here ? 'page' : undefined}
      className={cx(
        'inline-flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
        here && 'bg-zinc-100 text-zinc-900',
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5 shrink-0 sm:hidden">
        <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0 .75.75 0 0 1-.75.75H3.75A.75.75 0 0 1 3 18Z" />
      </svg>
      <span className="sr-only">Account: </span>
      {/* not-sr-only resets white-space: the truncation sits on a span of its own. */}
      <span className="sr-only sm:not-sr-only">
        <span className="block max-w-48 truncate">{label}</span>
      </span>
    </Link>
  );
}
