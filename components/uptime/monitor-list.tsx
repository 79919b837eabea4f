'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { HourlyBucket, MonitorLive, UptimeIncident, UptimeMonitor } from '@/components/api/types';
import { useServerRefresh } from '@/components/api/use-api';
import { AppOffState } from '@/components/sites/app-off-state';
import { useInPlaceEditor } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { EmptyState, Section } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';
import { HealthBar, HealthLegend } from './health-bar';
import { currentHourState, hourSlots } from './hours';
import { MonitorForm } from './monitor-form';
import { MonitorStatusBadge } from './monitor-status';
import { PingUrlPanel } from './ping-url';
import { usePlaces } from './places';
import { cadenceLabel, currentLatency, formatMs, heartbeatLabel, monitorLabel } from './words';

/** The list refreshes (the page's server read) this often while the tab is visible. */
const LIST_POLL_MS = 30_000;

/**
 * One monitor as the page reads it on the server (lib/uptime/overview.ts): the live endpoint's
 * answer (less `alerting`: who an outage reaches is read on the monitor's own page) plus the
 * metrics endpoint's last 24 closed hours and incidents.
 */
export type MonitorOverview = Omit<MonitorLive, 'alerting'> & {
  hours: HourlyBucket[];
  events: UptimeIncident[];
};

/**
 * The Uptime tab: the site's monitors, each with its status (a degraded one names the failing
 * region), the last 24 closed hours as a health bar and the current latency; a create form (open
 * at once when there is no monitor yet). With the app off it says so and still lists the monitors
 * (they and their history are kept), read only. The page reads every monitor's state on the
 * server in a few queries; polling refreshes that read.
 */
export function MonitorList({
  siteId,
  monitors,
  readAt,
  canManage,
  appOn,
  deleted,
}: {
  siteId: string;
  monitors: MonitorOverview[];
  /** When the server read the monitors: the health bar's hour in progress is measured from it. */
  readAt: number;
  canManage: boolean;
  appOn: boolean;
  /** The label of a monitor just deleted from its page, announced here. */
  deleted?: string;
}) {
  const router = useRouter();
  const places = usePlaces();
  useServerRefresh(`uptime-monitors:${siteId}`, LIST_POLL_MS);
  const editor = useInPlaceEditor();
  const creating = editor.open;
  const [created, setCreated] = useState<UptimeMonitor | null>(null);
  // The deletion's line is the URL's (?deleted=): dismissed, like the creation's, by the next action.
  const [deletedShown, setDeletedShown] = useState(Boolean(deleted));
  const result = useRef<HTMLDivElement>(null);

  // Focus goes to what happened: the new monitor's confirmation, or the deletion's.
  useEffect(() => {
    if (created || deleted) result.current?.focus();
  }, [created, deleted]);

  /** "Add monitor": the last result's line goes (it would stand above the new form's errors). */
  const startCreating = () => {
    setCreated(null);
    setDeletedShown(false);
    editor.openEditor();
  };

  const canCreate = canManage && appOn;
  const form = (
    <MonitorForm
      siteId={siteId}
      onSaved={(monitor) => {
        editor.closeEditor({ returnFocus: false });
        setCreated(monitor);
        router.refresh();
      }}
      onCancel={monitors.length > 0 ? () => editor.closeEditor() : undefined}
    />
  );

  return (
    <div className="space-y-6">
      <div ref={result} tabIndex={-1} role="status" className="focus-visible:outline-none">
        {created?.kind === 'heartbeat' ? (
          <div className="space-y-4 rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
            <p>
              Heartbeat monitor created: <strong>{monitorLabel(created)}</strong>. It is up from its first
              ping.{' '}
              <Link href={`/sites/${siteId}/uptime/${created.id}`} className="font-medium underline">
                Open its page
              </Link>
            </p>
            <PingUrlPanel siteId={siteId} monitor={created} fresh={created.ping_url} canManage={false} />
          </div>
        ) : created ? (
          <p className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
            Monitor created: <strong>{monitorLabel(created)}</strong>. The first checks{' '}
            {places.probedFrom === 'regions' ? 'from all four regions' : 'from this server'} are under way.{' '}
            <Link href={`/sites/${siteId}/uptime/${created.id}`} className="font-medium underline">
              Open its page
            </Link>
          </p>
        ) : deleted && deletedShown ? (
          <p className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
            Monitor <strong>{deleted}</strong> deleted, with its history.
          </p>
        ) : null}
      </div>

      {appOn ? null : (
        <AppOffState
          siteId={siteId}
          title="The Uptime app is off for this site"
          description={`While it is off no monitor is probed; monitors and their history are kept and resume when it is turned back on. With it on, each monitor's URL is probed ${places.where}, and an outage two ${places.unit}s confirm opens an incident and alerts the site's uptime receivers (chosen in Notifications).`}
          canManage={canManage}
        />
      )}

      {monitors.length === 0 ? (
        appOn ? (
          canCreate ? (
            <Section
              id="new-monitor"
              title="Add your first monitor"
              description={`A monitor probes one URL ${places.where} on its interval. An outage confirmed by two or more ${places.unit}s opens an incident and alerts the site's uptime receivers (chosen in Notifications) and the monitor's own; one failing ${places.unit} shows as degraded, named, without waking anyone.`}
            >
              {form}
            </Section>
          ) : (
            <EmptyState
              title="No monitors yet"
              description={`An owner or admin can add a monitor: it probes a URL ${places.where} and alerts on outages.`}
            />
          )
        ) : null
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <HealthLegend />
            {canCreate && !creating ? (
              <div ref={editor.openerRef}>
                <Button variant="primary" onClick={startCreating}>
                  Add monitor
                </Button>
              </div>
            ) : null}
          </div>
          {creating ? (
            <div ref={editor.editorRef}>
              <Section id="new-monitor" title="New monitor" headingLevel={3}>
                {form}
              </Section>
            </div>
          ) : null}
          <ul aria-label="Monitors" className="space-y-4">
            {monitors.map((overview) => (
              <MonitorRow key={overview.monitor.id} siteId={siteId} overview={overview} readAt={readAt} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function MonitorRow({
  siteId,
  overview,
  readAt,
}: {
  siteId: string;
  overview: MonitorOverview;
  readAt: number;
}) {
  const places = usePlaces();
  const { monitor, regions, hours, events } = overview;
  const label = monitorLabel(monitor);
  const latency = currentLatency(regions);
  return (
    <li className="rounded-lg border border-zinc-200 bg-white px-5 py-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold break-words text-zinc-900">
            <Link href={`/sites/${siteId}/uptime/${monitor.id}`} className="hover:underline">
              {label}
            </Link>
          </h3>
          {monitor.kind === 'heartbeat' ? (
            <p className="text-sm text-zinc-600">Heartbeat: {heartbeatLabel(monitor).toLowerCase()}</p>
          ) : monitor.name ? (
            <p className="text-sm break-all text-zinc-600">{monitor.url}</p>
          ) : null}
        </div>
        <MonitorStatusBadge monitor={monitor} live={overview} />
      </div>
      {monitor.kind === 'heartbeat' ? (
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm">
          <div>
            <dt className="text-xs font-medium text-zinc-600">Last ping</dt>
            <dd className="text-zinc-900">
              {monitor.last_ping_at ? formatDateTime(monitor.last_ping_at) : 'none yet'}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-zinc-600">Pings</dt>
            <dd className="text-zinc-900">{heartbeatLabel(monitor)}</dd>
          </div>
        </dl>
      ) : (
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-medium text-zinc-600">Latency now</dt>
            <dd className="text-zinc-900 tabular-nums">
              {latency === null ? (
                regions.some((r) => r.probe !== null) ? (
                  'no answer'
                ) : (
                  'not measured yet'
                )
              ) : (
                <>
                  {formatMs(latency.ms)}{' '}
                  <span className="text-xs text-zinc-600">
                    median of {latency.regions} {places.unit}
                    {latency.regions === 1 ? '' : 's'}
                  </span>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-zinc-600">Checks</dt>
            <dd className="text-zinc-900">{cadenceLabel(monitor.cadence_seconds)}</dd>
          </div>
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-xs font-medium text-zinc-600">Last checked</dt>
            <dd className="text-zinc-900">
              {monitor.last_checked_at ? formatDateTime(monitor.last_checked_at) : 'not yet'}
            </dd>
          </div>
        </dl>
      )}
      <div className="mt-4">
        <HealthBar
          slots={hourSlots(hours, events, readAt, currentHourState(monitor, readAt))}
          label={`${label}: health per hour over the last 24 hours, oldest first`}
          createdAt={monitor.created_at}
          lastCheckedAt={monitor.last_checked_at}
        />
      </div>
    </li>
  );
}
