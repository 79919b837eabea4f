import { cx } from './cx';

/**
 * The look shared by the site's section bar (TabNav) and in-page tabs (Tabs): the row wraps rather
 * than scrolls, so at 390 px every tab stays in sight instead of being cut at the edge with no sign
 * that more lie beyond it.
 */
export const tabRowClass = '-mb-px flex flex-wrap gap-x-1';

/** One tab: the current one underlined in the accent colour. */
export function tabClass(current: boolean): string {
  return cx(
    'block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
    current
      ? 'border-accent-600 text-zinc-900'
      : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900',
  );
}
