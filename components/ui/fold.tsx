'use client';

import { usePathname } from 'next/navigation';
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { cx } from './cx';

/**
 * A navigation list folded below 640 px into one button naming the current entry (a disclosure),
 * shared by the dashboard's menu and a site's sections: at 390 px seven or eleven links wrapped into
 * three or four rows before any content, and a scrolled strip would hide most of them with no sign
 * that they are there. Following a link folds the list again (the new page shows on the button);
 * Escape folds it and gives the focus back to the button.
 */
export function useFold() {
  const pathname = usePathname();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: folds on each new pathname
  useEffect(() => setOpen(false), [pathname]);
  return {
    open,
    listId,
    toggle,
    flip: () => setOpen((o) => !o),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !open) return;
      setOpen(false);
      toggle.current?.focus();
    },
  };
}

/**
 * The button of a folded list: "<prefix>: <current entry>" ("Menu" alone on a page no entry leads
 * to, such as the account page), shown below 640 px only.
 */
export function FoldButton({
  fold,
  prefix,
  current,
}: {
  fold: { open: boolean; listId: string; toggle: RefObject<HTMLButtonElement | null>; flip: () => void };
  prefix: string;
  current: string | undefined;
}) {
  return (
    <button
      ref={fold.toggle}
      type="button"
      aria-expanded={fold.open}
      aria-controls={fold.listId}
      onClick={fold.flip}
      className="mb-2 flex w-full items-center justify-between gap-2 rounded-md border border-zinc-300 bg-white px-3 py-2 text-left text-sm font-medium text-zinc-900 shadow-xs sm:hidden"
    >
      {current ? (
        <span>
          <span className="text-zinc-600">{prefix}: </span>
          {current}
        </span>
      ) : (
        <span>{prefix}</span>
      )}
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className={cx('size-4 text-zinc-600 transition-transform', fold.open && 'rotate-180')}
      >
        <path d="M5 7.5 10 12.5 15 7.5" fill="none" stroke="currentColor" strokeWidth="1.75" />
      </svg>
    </button>
  );
}
