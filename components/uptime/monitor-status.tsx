import type { MonitorLive, UptimeMonitor } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { usePlaces } from './places';
import { type StatusTone, statusOf } from './words';

const tones: Record<StatusTone, string> = {
  success: 'bg-green-50 text-green-800 ring-green-300',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300',
  danger: 'bg-red-50 text-red-800 ring-red-300',
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-300',
};

/** A glyph per status, so the badge tells them apart without its colour too. */
const glyphs: Record<ReturnType<typeof statusOf>['status'], string> = {
  up: '✓',
  degraded: '!',
  down: '✕',
  unknown: '…',
  paused: '‖',
  stopped: '■',
};

/**
 * The monitor's status as words (never colour alone): "Up", "Degraded: failing in Europe",
 * "Down", "Paused", "Stopped: the Uptime app is off", "Not checked yet" ("Waiting for the first
 * ping" for a heartbeat).
 */
export function MonitorStatusBadge({
  monitor,
  live,
  className,
}: {
  monitor: Pick<UptimeMonitor, 'enabled' | 'status'> & Partial<Pick<UptimeMonitor, 'kind'>>;
  live?: Pick<MonitorLive, 'probing' | 'consensus'>;
  className?: string;
}) {
  const s = statusOf(monitor, live, usePlaces().names);
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset',
        tones[s.tone],
        className,
      )}
    >
      <span aria-hidden="true">{glyphs[s.status]}</span>
      <span>
        {s.label}
        {s.detail ? `: ${s.detail}` : ''}
      </span>
    </span>
  );
}
