import type { CSSProperties } from 'react';
import { cx } from '@/components/ui/cx';
import { formatDayAndTime, formatNumber } from '@/lib/format';
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

/** An hour that ended before the monitor was added: a hairline, so it reads as "not yet", not a gap. */
const beforeLook = { className: 'h-0.5 bg-zinc-300', label: 'Before the monitor was added' };

const currentWords: Record<HourState, string> = {
  up: 'latest round up',
  failures: 'latest round degraded or failing',
  down: 'down (incident)',
  none: 'no checks yet',
};

/**
 * A closed hour without checks that began before the monitor was added says so, rather than
 * "no checks": a monitor added an hour ago has not missed the 22 hours before it existed.
 */
function beforeAdded(slot: HourSlot, createdAt: number): boolean {
  return !slot.current && slot.state === 'none' && slot.start < createdAt;
}

function hourText(slot: HourSlot, createdAt: number): string {
  const when = `${formatDayAndTime(slot.start)} UTC`;
  if (slot.current) return `${when} (this hour, so far): ${currentWords[slot.state]}`;
  if (beforeAdded(slot, createdAt)) return `${when}: ${beforeLook.label.toLowerCase()}`;
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
 * state since the monitor was added, or, before its first round, says it waits for it.
 */
export function HealthBar({
  slots,
  label,
  createdAt,
  lastCheckedAt,
}: {
  slots: HourSlot[];
  label: string;
  /** When the monitor was added: earlier hours are not hours without checks. */
  createdAt: number;
  /** Its latest round; null before the first. */
  lastCheckedAt: number | null;
}) {
  const counts: Record<HourState, number> = { up: 0, failures: 0, down: 0, none: 0 };
  for (const slot of slots) if (!slot.current && !beforeAdded(slot, createdAt)) counts[slot.state] += 1;
  const parts =
    lastCheckedAt === null
      ? ['Waiting for its first check']
      : [
          counts.down > 0 ? `${counts.down} h down` : null,
          counts.failures > 0 ? `${counts.failures} h with failed checks` : null,
          counts.up > 0 ? `${counts.up} h without failures` : null,
          counts.none > 0 ? `${counts.none} h without checks` : null,
        ].filter(Boolean);
  return (
    <div>
      <ol aria-label={label} className="flex h-8 items-end gap-px">
        {slots.map((slot) => {
          const text = hourText(slot, createdAt);
          const before = beforeAdded(slot, createdAt);
          return (
            <li key={slot.start} title={text} className="flex h-full min-w-0 flex-1 items-end">
              <span
                aria-hidden="true"
                className={cx(
                  'block w-full rounded-[1px]',
                  before ? beforeLook.className : look[slot.state].className,
                )}
                style={before ? undefined : look[slot.state].style}
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
      <li className="flex items-center gap-1.5">
        <span className="flex h-3 w-3 items-end" aria-hidden="true">
          <span className={cx('block w-full', beforeLook.className)} />
        </span>
        {beforeLook.label}
      </li>
    </ul>
  );
}
