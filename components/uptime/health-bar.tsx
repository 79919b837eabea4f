import type { CSSProperties } from 'react';
import { cx } from '@/components/ui/cx';
import { formatDayAndTime, formatNumber } from '@/components/ui/format';
import type { HourSlot, HourState } from './hours';

/**
 * Each state differs in more than colour: height (no data is a stub), and a pattern (hatched for
 * failures, cross-hatched for an incident), so the bar reads in greyscale and to colour-blind eyes.
 */
const look: Record<HourState, { className: string; style?: CSSProperties; label: string }> = {
  up: { className: 'h-full bg-green-600', label: 'No failures' },
  failures: {
    className: 'h-full bg-amber-600',
    style: {
      backgroundImage: 'repeating-linear-gradient(45deg, rgb(255 255 255 / 0.55) 0 2px, transparent 2px 5px)',
    },
    label: 'Some checks failed',
  },
  down: {
    className: 'h-full bg-red-700',
    style: {
      backgroundImage:
        'repeating-linear-gradient(45deg, rgb(255 255 255 / 0.5) 0 1.5px, transparent 1.5px 5px), repeating-linear-gradient(-45deg, rgb(255 255 255 / 0.5) 0 1.5px, transparent 1.5px 5px)',
    },
    label: 'Down (incident)',
  },
  none: { className: 'h-1/4 bg-zinc-400', label: 'No checks' },
};

const currentWords: Record<HourState, string> = {
  up: 'latest round up',
  failures: 'latest round degraded or failing',
  down: 'down (incident)',
  none: 'no checks yet',
};

function hourText(slot: HourSlot): string {
  const when = `${formatDayAndTime(slot.start)} UTC`;
  if (slot.current) return `${when} (this hour, so far): ${currentWords[slot.state]}`;
  const counts =
    slot.total === 0
      ? ''
      : slot.failed === 0
        ? ` (${formatNumber(slot.total)} checks)`
        : ` (${formatNumber(slot.failed)} of ${formatNumber(slot.total)} checks failed)`;
  return `${when}: ${look[slot.state].label.toLowerCase()}${counts}`;
}

/**
 * The last 24 hours as a row of bars, oldest first, the hour in progress last. A list for assistive
 * technology, each hour saying what happened in words; the line under it counts the closed hours by
 * state.
 */
export function HealthBar({ slots, label }: { slots: HourSlot[]; label: string }) {
  const counts: Record<HourState, number> = { up: 0, failures: 0, down: 0, none: 0 };
  for (const slot of slots) if (!slot.current) counts[slot.state] += 1;
  const parts = [
    counts.down > 0 ? `${counts.down} h down` : null,
    counts.failures > 0 ? `${counts.failures} h with failed checks` : null,
    counts.up > 0 ? `${counts.up} h without failures` : null,
    counts.none > 0 ? `${counts.none} h without checks` : null,
  ].filter(Boolean);
  return (
    <div>
      <ol aria-label={label} className="flex h-8 items-end gap-px">
        {slots.map((slot) => {
          const text = hourText(slot);
          return (
            <li key={slot.start} title={text} className="flex h-full min-w-0 flex-1 items-end">
              <span
                aria-hidden="true"
                className={cx('block w-full rounded-[1px]', look[slot.state].className)}
                style={look[slot.state].style}
              />
              <span className="sr-only">{text}</span>
            </li>
          );
        })}
      </ol>
      <p aria-hidden="true" className="mt-1 flex justify-between text-xs text-zinc-600">
        <span>{slots.length} h ago</span>
        <span>now</span>
      </p>
      <p className="text-xs text-zinc-600">{parts.join(' · ')}</p>
    </div>
  );
}

/** What the bar's patterns mean, once per page. */
export function HealthLegend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600" aria-label="Health bar legend">
      {(['up', 'failures', 'down', 'none'] as const).map((state) => (
        <li key={state} className="flex items-center gap-1.5">
          <span className="flex h-3 w-3 items-end" aria-hidden="true">
            <span className={cx('block w-full', look[state].className)} style={look[state].style} />
          </span>
          {look[state].label}
        </li>
      ))}
    </ul>
  );
}
