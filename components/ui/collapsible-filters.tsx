'use client';

import { type ReactNode, useState, useSyncExternalStore } from 'react';

const NARROW = '(max-width: 39.99rem)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * A table's filters behind a "Filters" disclosure: open on wide screens, closed on a phone (where the
 * fields stack and would push the table a screen down) unless filters are in effect. Rendered open on
 * the server, so the form works and shows without script; a toggle by the user wins from then on.
 */
export function CollapsibleFilters({
  active,
  summary,
  children,
}: {
  /** Filters are in effect: the disclosure starts open at any width, showing them. */
  active: boolean;
  /** What the summary says after "Filters", e.g. "(2 in effect)". */
  summary?: string;
  children: ReactNode;
}) {
  const narrow = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? (active || !narrow);
  return (
    <details
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        if (now !== open) setChosen(now);
      }}
      className="group rounded-lg border border-zinc-200 bg-white shadow-xs"
    >
      <summary className="cursor-pointer rounded-lg px-4 py-2.5 text-sm font-medium text-zinc-800 select-none hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600">
        Filters{summary ? ` ${summary}` : ''}
      </summary>
      <div className="border-t border-zinc-200">{children}</div>
    </details>
  );
}
