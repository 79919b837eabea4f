'use client';

import { type FormEvent, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { FormErrors } from '@/components/api/field-errors';
import type { MaintenanceWindow, MaintenanceWindowsResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { useFieldSubmit } from '@/components/api/use-field-submit';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CheckboxField, FormError, TextField } from '@/components/ui/field';
import { Badge, EmptyState, LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { formatDuration } from '@/lib/format';

/*
 * The Uptime tab's Maintenance part (issue 26 item 3): the site's windows as a calendar list,
 * grouped into under way, upcoming and past, each day a date tile with its windows; the form that
 * schedules one for every monitor of the site or the ones ticked; "End now" and delete. Times are
 * UTC, as everywhere in the dashboard.
 */

type Field = 'title' | 'startsAt' | 'endsAt' | 'monitorIds';
const FIELDS: readonly Field[] = ['title', 'startsAt', 'endsAt', 'monitorIds'];

export interface MonitorChoice {
  id: string;
  label: string;
}

const GROUPS = [
  { state: 'active', title: 'Under way' },
  { state: 'upcoming', title: 'Upcoming' },
  { state: 'past', title: 'Past' },
] as const;

/** Past windows shown: the latest ones (the API pages through the rest). */
const PAST_SHOWN = 10;

const utc = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' });
const weekday = utc({ weekday: 'short' });
const dayNumber = utc({ day: 'numeric' });
const month = utc({ month: 'short', year: 'numeric' });
const longDay = utc({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const clock = utc({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `<input type="datetime-local">` value of an instant, in UTC (the dashboard's time). */
const localValue = (ms: number) => new Date(ms).toISOString().slice(0, 16);
/** The instant a `datetime-local` value names, read as UTC; NaN when it is empty or malformed. */
const instantOf = (value: string) => (value ? Date.parse(`${value}:00Z`) : Number.NaN);

/** 14:00–16:30 UTC, or 22:00 UTC to Wed 2 Dec, 02:00 UTC across midnight. */
function spanLabel(w: MaintenanceWindow): string {
  const start = `${clock.format(w.startsAt)}`;
  if (dayKey(w.startsAt) === dayKey(w.endsAt)) return `${start}–${clock.format(w.endsAt)} UTC`;
  return `${start} UTC to ${weekday.format(w.endsAt)} ${dayNumber.format(w.endsAt)} ${month.format(w.endsAt)}, ${clock.format(w.endsAt)} UTC`;
}

export function MaintenanceWindows({
  siteId,
  monitors,
  canManage,
}: {
  siteId: string;
  /** The site's monitors, oldest first, as the list names them. */
  monitors: MonitorChoice[];
  canManage: boolean;
}) {
  const windows = useApi<MaintenanceWindowsResponse>(`/v1/sites/${siteId}/maintenance-windows`);
  const reload = async () => {
    await windows.mutate();
  };
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const attempt = useAttempt(announcer);
  const [saves, setSaves] = useState(0);
  const labelOf = (id: string) => monitors.find((m) => m.id === id)?.label ?? 'a deleted monitor';

  const endNow = (w: MaintenanceWindow) =>
    attempt({ what: 'Ending the window failed', focus: true }, async () => {
      await requestJson(`/v1/sites/${siteId}/maintenance-windows/${w.id}`, {
        method: 'PATCH',
        body: { endsAt: Date.now() },
      });
      await reload();
      return { text: `Maintenance "${w.title}" ended: failures count as outages again.`, focus: true };
    });

  const remove = (w: MaintenanceWindow) =>
    attempt({ what: 'Delete failed', focus: true }, async () => {
      await requestJson(`/v1/sites/${siteId}/maintenance-windows/${w.id}`, { method: 'DELETE' });
      await reload();
      return { text: `Maintenance "${w.title}" deleted.`, focus: true };
    });

  const all = windows.data?.maintenanceWindows ?? [];
  const inGroup = (state: MaintenanceWindow['state']) => {
    const mine = all.filter((w) => w.state === state);
    // The API lists latest start first; what is coming reads soonest first.
    return state === 'past' ? mine.slice(0, PAST_SHOWN) : mine.sort((a, b) => a.startsAt - b.startsAt);
  };

  return (
    <Section
      id="maintenance"
      title="Maintenance"
      description="During a maintenance window the covered monitors are still checked, but a failure opens no incident, alerts nobody and does not count against uptime. Status pages listing them announce the window ahead. A monitor still failing when the window ends opens its incident then."
    >
      <div className="space-y-6">
        <Announcement announcer={announcer} />
        {windows.error ? (
          <LoadError title="Could not load maintenance windows" error={windows.error} onRetry={reload} />
        ) : !windows.data ? (
          <Loading label="Loading maintenance windows">
            <Skeleton className="h-24 w-full" />
          </Loading>
        ) : all.length === 0 ? (
          <EmptyState
            title="No maintenance scheduled"
            description="Schedule a window before planned work, so the outage it causes wakes nobody and costs no uptime."
          />
        ) : (
          GROUPS.map(({ state, title }) => {
            const group = inGroup(state);
            if (group.length === 0) return null;
            return (
              <WindowGroup
                key={state}
                title={title}
                windows={group}
                labelOf={labelOf}
                canManage={canManage}
                onEndNow={endNow}
                onDelete={remove}
              />
            );
          })
        )}
        {canManage ? (
          <div className="border-t border-zinc-200 pt-5">
            <h3 className="text-sm font-semibold text-zinc-900">Schedule maintenance</h3>
            <WindowForm
              key={saves}
              siteId={siteId}
              monitors={monitors}
              onSaved={async (saved) => {
                setSaves((n) => n + 1);
                await reload();
                announce(
                  `Maintenance "${saved.title}" ${saved.state === 'active' ? 'under way' : 'scheduled'}: ${longDay.format(saved.startsAt)}, ${spanLabel(saved)}.`,
                  { focus: true },
                );
              }}
            />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

function WindowGroup({
  title,
  windows,
  labelOf,
  canManage,
  onEndNow,
  onDelete,
}: {
  title: string;
  windows: MaintenanceWindow[];
  labelOf: (id: string) => string;
  canManage: boolean;
  onEndNow: (w: MaintenanceWindow) => Promise<unknown>;
  onDelete: (w: MaintenanceWindow) => Promise<unknown>;
}) {
  const days = new Map<string, MaintenanceWindow[]>();
  for (const w of windows) days.set(dayKey(w.startsAt), [...(days.get(dayKey(w.startsAt)) ?? []), w]);
  const headingId = `maintenance-group-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="text-sm font-semibold text-zinc-900">
        {title} <span className="font-normal text-zinc-600">({windows.length})</span>
      </h3>
      <ol className="mt-2 space-y-3">
        {[...days].map(([key, dayWindows]) => {
          const first = dayWindows[0]!.startsAt;
          return (
            <li key={key} className="flex gap-3">
              <div
                aria-hidden="true"
                className="flex w-14 shrink-0 flex-col items-center rounded-md border border-zinc-200 bg-zinc-50 py-1 text-zinc-700"
              >
                <span className="text-xs uppercase">{weekday.format(first)}</span>
                <span className="text-xl font-semibold text-zinc-900">{dayNumber.format(first)}</span>
                <span className="text-[0.6875rem]">{month.format(first)}</span>
              </div>
              <div className="min-w-0 flex-1">
                <h4 className="sr-only">{longDay.format(first)}</h4>
                <ul className="space-y-2">
                  {dayWindows.map((w) => (
                    <WindowItem
                      key={w.id}
                      window={w}
                      labelOf={labelOf}
                      canManage={canManage}
                      onEndNow={() => onEndNow(w)}
                      onDelete={async () => {
                        await onDelete(w);
                      }}
                    />
                  ))}
                </ul>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function WindowItem({
  window: w,
  labelOf,
  canManage,
  onEndNow,
  onDelete,
}: {
  window: MaintenanceWindow;
  labelOf: (id: string) => string;
  canManage: boolean;
  onEndNow: () => Promise<unknown>;
  onDelete: () => Promise<void>;
}) {
  const [ending, setEnding] = useState(false);
  const covers = w.allMonitors
    ? 'All monitors of the site'
    : w.monitorIds.length === 0
      ? 'No monitor (the ones it listed were deleted)'
      : w.monitorIds.map(labelOf).join(', ');
  return (
    <li className="rounded-md border border-zinc-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words text-zinc-900">{w.title}</p>
          <p className="text-sm text-zinc-700">
            {spanLabel(w)} <span className="text-zinc-600">({formatDuration(w.endsAt - w.startsAt)})</span>
          </p>
          <p className="text-sm text-zinc-600">Covers: {covers}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {w.state === 'active' ? <Badge tone="info">Under way</Badge> : null}
          {canManage && w.state === 'active' ? (
            <Button
              size="sm"
              variant="ghost"
              pending={ending}
              onClick={async () => {
                setEnding(true);
                await onEndNow();
                setEnding(false);
              }}
            >
              End now<span className="sr-only"> {w.title}</span>
            </Button>
          ) : null}
          {canManage ? (
            <ConfirmButton
              label={
                <>
                  Delete<span className="sr-only"> {w.title}</span>
                </>
              }
              confirmLabel={
                <>
                  Delete now<span className="sr-only"> {w.title}</span>
                </>
              }
              onConfirm={onDelete}
            />
          ) : null}
        </div>
      </div>
    </li>
  );
}

/** The next full hour, for the form's default start. */
function nextHour(now: number): number {
  return Math.ceil(now / 3_600_000) * 3_600_000;
}

function WindowForm({
  siteId,
  monitors,
  onSaved,
}: {
  siteId: string;
  monitors: MonitorChoice[];
  onSaved: (w: MaintenanceWindow) => Promise<void>;
}) {
  const [initial] = useState(() => nextHour(Date.now()));
  const [title, setTitle] = useState('');
  const [startsAt, setStartsAt] = useState(localValue(initial));
  const [endsAt, setEndsAt] = useState(localValue(initial + 3_600_000));
  const [everyMonitor, setEveryMonitor] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const { errors, setErrors, pending, attempt } = useFieldSubmit({
    fields: FIELDS,
    fallback: 'Could not schedule the maintenance window.',
    focusField,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const start = instantOf(startsAt);
    const end = instantOf(endsAt);
    const found: FormErrors<Field> = {};
    if (!title.trim()) found.title = 'Say what the work is: visitors of status pages read it.';
    if (Number.isNaN(start)) found.startsAt = 'Enter when the work begins.';
    if (Number.isNaN(end)) found.endsAt = 'Enter when the work ends.';
    else if (!Number.isNaN(start) && end <= start) found.endsAt = 'Must be after the start.';
    if (!everyMonitor && chosen.length === 0)
      found.monitorIds = 'Tick at least one monitor, or cover all of them.';
    setErrors(found);
    const firstField = FIELDS.find((f) => found[f]);
    if (firstField) {
      focusField(firstField);
      return;
    }
    await attempt(async () => {
      const result = await requestJson<{ maintenanceWindow: MaintenanceWindow }>(
        `/v1/sites/${siteId}/maintenance-windows`,
        {
          body: {
            title: title.trim(),
            startsAt: start,
            endsAt: end,
            ...(everyMonitor ? {} : { monitorIds: chosen }),
          },
        },
      );
      await onSaved(result.maintenanceWindow);
    });
  }

  return (
    <form onSubmit={submit} aria-label="Schedule maintenance" className="mt-3 space-y-4" noValidate>
      <TextField
        id="window-title"
        label="What is the work?"
        hint="Shown on status pages that list a covered monitor."
        maxLength={100}
        placeholder="Database upgrade"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={errors.title}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="window-startsAt"
          type="datetime-local"
          label="Starts (UTC)"
          hint="Now or later."
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={errors.startsAt}
        />
        <TextField
          id="window-endsAt"
          type="datetime-local"
          label="Ends (UTC)"
          hint="At most 7 days after the start."
          value={endsAt}
          onChange={(e) => setEndsAt(e.target.value)}
          error={errors.endsAt}
        />
      </div>
      <fieldset aria-describedby={errors.monitorIds ? 'window-monitors-error' : undefined}>
        <legend className="text-sm font-medium text-zinc-800">Monitors to cover</legend>
        <div className="mt-2 space-y-2">
          <CheckboxField
            id="window-every"
            label="Every monitor of this site"
            hint="Including monitors added before the window ends."
            checked={everyMonitor}
            onChange={(e) => setEveryMonitor(e.target.checked)}
          />
          {everyMonitor ? null : monitors.length === 0 ? (
            <p className="text-sm text-zinc-600">
              This site has no monitor yet: cover every monitor instead.
            </p>
          ) : (
            <div className="grid gap-2 pl-7 sm:grid-cols-2">
              {monitors.map((m, i) => (
                <CheckboxField
                  key={m.id}
                  id={i === 0 ? 'window-monitorIds' : undefined}
                  label={m.label}
                  checked={chosen.includes(m.id)}
                  onChange={(e) =>
                    setChosen((prev) => (e.target.checked ? [...prev, m.id] : prev.filter((x) => x !== m.id)))
                  }
                />
              ))}
            </div>
          )}
        </div>
        {errors.monitorIds ? (
          <p id="window-monitors-error" className="mt-2 text-xs font-medium text-red-700">
            {errors.monitorIds}
          </p>
        ) : null}
      </fieldset>
      <FormError>{errors.form}</FormError>
      <Button type="submit" variant="primary" pending={pending}>
        Schedule maintenance
      </Button>
    </form>
  );
}

function focusField(field: Field) {
  const target =
    field === 'monitorIds'
      ? (document.getElementById('window-monitorIds') ?? document.getElementById('window-every'))
      : document.getElementById(`window-${field}`);
  target?.focus();
}
