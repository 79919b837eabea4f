'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { failureMessage, type Resource, requestJson, useResource } from '@/components/api/client';
import type {
  MonitorLive,
  MonitorMetrics,
  MonitorResponse,
  RoundConsensus,
  UptimeIncident,
} from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { cx } from '@/components/ui/cx';
import { ExternalLink } from '@/components/ui/external-link';
import { formatDateTime, formatDuration } from '@/components/ui/format';
import { Alert, EmptyState, LoadError, Loading, Skeleton, Stat } from '@/components/ui/surface';
import { IncidentList } from './incident-list';
import { LatencyChart, RANGES, type RangeHours } from './latency-chart';
import { MonitorForm } from './monitor-form';
import { MonitorStatusBadge } from './monitor-status';
import { ProbingNotice, resumedMessage } from './probing-notice';
import { RegionCards } from './region-cards';
import { usePolling } from './use-polling';
import {
  CAUSE_WORDS,
  cadenceLabel,
  formatMs,
  formatPct,
  listRegions,
  monitorLabel,
  parseAlertEmails,
  parseAlertWebhooks,
  statusOf,
} from './words';

/** The live state is polled this often while the page is open and visible. */
const LIVE_POLL_MS = 10_000;

type Metrics = Record<RangeHours, Resource<MonitorMetrics>>;

/**
 * One monitor: its status (live: polled while the tab is visible), each region's latest probe with
 * phase timings and certificate expiry, uptime over 24 h / 7 d / 30 d / 90 d, per-region latency by
 * hour, the incidents of the last 90 days; edit, pause or resume, delete.
 */
export function MonitorView({
  siteId,
  monitorId,
  canManage,
}: {
  siteId: string;
  monitorId: string;
  canManage: boolean;
}) {
  const base = `/v1/sites/${siteId}/uptime/monitors/${monitorId}`;
  const live = useResource<MonitorLive>(`${base}/live`);
  usePolling(live.reload, LIVE_POLL_MS);
  const metrics: Metrics = {
    24: useResource<MonitorMetrics>(`${base}/metrics?hours=24`),
    168: useResource<MonitorMetrics>(`${base}/metrics?hours=168`),
    720: useResource<MonitorMetrics>(`${base}/metrics?hours=720`),
    2160: useResource<MonitorMetrics>(`${base}/metrics?hours=2160`),
  };
  const [range, setRange] = useState<RangeHours>(24);

  // Metrics change when an hour closes or an incident opens or closes: the live state tells when
  // the status moved, and then the figures are read again.
  const statusKey = live.data
    ? `${live.data.monitor.status}:${live.data.monitor.status_since}:${live.data.openIncident?.id ?? ''}`
    : null;
  const seenKey = useRef<string | null>(null);
  const [r24, r168, r720, r2160] = [
    metrics[24].reload,
    metrics[168].reload,
    metrics[720].reload,
    metrics[2160].reload,
  ];
  useEffect(() => {
    if (statusKey === null) return;
    if (seenKey.current !== null && seenKey.current !== statusKey) {
      for (const reload of [r24, r168, r720, r2160]) void reload();
    }
    seenKey.current = statusKey;
  }, [statusKey, r24, r168, r720, r2160]);

  if (live.error?.status === 404) {
    return (
      <EmptyState
        title="Monitor not found"
        description="It may have been deleted, or it belongs to another site."
        action={
          <Link href={`/sites/${siteId}/uptime`} className="text-sm font-medium text-accent-700 underline">
            Back to the monitors
          </Link>
        }
      />
    );
  }
  if (live.error && !live.data) {
    return <LoadError title="Could not load the monitor" error={live.error} onRetry={live.reload} />;
  }
  if (!live.data) {
    return (
      <Loading label="Loading monitor">
        <Skeleton className="mb-4 h-24 w-full" />
        <Skeleton className="mb-4 h-40 w-full" />
        <Skeleton className="h-64 w-full" />
      </Loading>
    );
  }

  const state = live.data;
  return (
    <div className="space-y-8">
      <Header
        siteId={siteId}
        state={state}
        canManage={canManage}
        onChanged={async () => {
          await live.reload();
        }}
      />
      {live.error ? (
        <Alert tone="warning">
          Live updates paused: {live.error.message}. The figures below may be out of date.
        </Alert>
      ) : null}

      <Part id="regions" title="Regions">
        <ConsensusLine consensus={state.consensus} />
        <RegionCards regions={state.regions} consensus={state.consensus} />
      </Part>

      <Part id="uptime" title="Uptime">
        <p className="mb-3 text-sm text-zinc-600">
          The share of each period not covered by an incident (an outage two or more regions confirmed),
          counted from when the monitor was created and leaving out the time it was paused, stopped or held
          (nothing checked it then).
        </p>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {RANGES.map((r) => (
            <UptimeStat
              key={r.hours}
              label={r.label}
              metrics={metrics[r.hours]}
              checked={state.monitor.last_checked_at !== null}
            />
          ))}
        </dl>
      </Part>

      <Part id="latency" title="Latency by region">
        <LatencyChart range={range} onRange={setRange} buckets={metrics[range].data?.hours} />
        {metrics[range].error ? (
          <LoadError
            title="Could not load the latency"
            error={metrics[range].error}
            onRetry={metrics[range].reload}
          />
        ) : null}
      </Part>

      <Part id="incidents" title="Incidents in the last 90 days">
        {metrics[2160].error ? (
          <LoadError
            title="Could not load the incidents"
            error={metrics[2160].error}
            onRetry={metrics[2160].reload}
          />
        ) : !metrics[2160].data ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <IncidentList incidents={metrics[2160].data.events} />
        )}
      </Part>
    </div>
  );
}

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="mb-3 text-base font-semibold text-zinc-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

function UptimeStat({
  label,
  metrics,
  checked,
}: {
  label: string;
  metrics: Metrics[RangeHours];
  /** Before the first round there is nothing to count: no figure rather than a hollow 100%. */
  checked: boolean;
}) {
  const data = metrics.data;
  const incidents = data?.events.length ?? 0;
  let value = '…';
  let hint = 'loading';
  if (metrics.error) {
    value = '—';
    hint = 'could not be loaded';
  } else if (data && !checked) {
    value = '—';
    hint = 'no checks yet';
  } else if (data) {
    value = formatPct(data.uptimePct);
    hint =
      data.uptimePct === null
        ? 'the monitor did not exist yet'
        : `${incidents === 0 ? 'no incidents' : `${incidents} incident${incidents === 1 ? '' : 's'}`}${
            data.monitor.created_at > data.fromMs ? ', since it was created' : ''
          }`;
  }
  return <Stat label={label} value={value} hint={hint} />;
}

/** The monitor's name, URL, status and settings, its state notices, and the owner's actions. */
function Header({
  siteId,
  state,
  canManage,
  onChanged,
}: {
  siteId: string;
  state: MonitorLive;
  canManage: boolean;
  onChanged: () => Promise<void>;
}) {
  const router = useRouter();
  const { monitor, probing, openIncident } = state;
  const [editing, setEditing] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string; at: number } | null>(null);
  const [pausing, setPausing] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLSpanElement>(null);
  const label = monitorLabel(monitor);
  const status = statusOf(monitor, state);

  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const done = (tone: 'success' | 'danger', text: string) => setResult({ tone, text, at: Date.now() });

  async function setEnabled(enabled: boolean) {
    setPausing(true);
    try {
      await requestJson<MonitorResponse>(`/v1/sites/${siteId}/uptime/monitors/${monitor.id}`, {
        method: 'PATCH',
        body: { enabled },
      });
      await onChanged();
      done(
        'success',
        enabled
          ? resumedMessage(probing)
          : 'Monitor paused: no probes run until you resume it. Its history is kept.',
      );
    } catch (e) {
      done('danger', failureMessage(e, `Could not ${enabled ? 'resume' : 'pause'} the monitor.`));
    } finally {
      setPausing(false);
    }
  }

  async function remove() {
    try {
      await requestJson(`/v1/sites/${siteId}/uptime/monitors/${monitor.id}`, { method: 'DELETE' });
      router.push(`/sites/${siteId}/uptime?deleted=${encodeURIComponent(label)}`);
    } catch (e) {
      done('danger', failureMessage(e, 'Could not delete the monitor.'));
    }
  }

  const emails = parseAlertEmails(monitor.alert_emails);
  const hooks = parseAlertWebhooks(monitor.alert_webhooks);
  return (
    <div className="space-y-4">
      <p>
        <Link
          href={`/sites/${siteId}/uptime`}
          className="text-sm text-zinc-600 hover:text-zinc-900 hover:underline"
        >
          ← All monitors
        </Link>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold break-words text-zinc-900">{label}</h2>
          <p className="mt-1 text-sm break-all text-zinc-600">
            <ExternalLink href={monitor.url} className="hover:underline">
              {monitor.url}
            </ExternalLink>
          </p>
        </div>
        <div className="flex flex-col items-start gap-1 sm:items-end">
          <MonitorStatusBadge monitor={monitor} live={state} />
          {monitor.status_since && status.status !== 'paused' && status.status !== 'stopped' ? (
            <p className="text-xs text-zinc-600">since {formatDateTime(monitor.status_since)}</p>
          ) : null}
        </div>
      </div>

      <div ref={resultRef} tabIndex={-1} className="focus-visible:outline-none">
        {result ? (
          <Alert tone={result.tone} key={result.at}>
            {result.text}
          </Alert>
        ) : null}
      </div>

      {openIncident ? <OpenIncident incident={openIncident} /> : null}
      <ProbingNotice probing={probing} siteId={siteId} canManage={canManage} />

      {editing ? (
        <section
          aria-labelledby="edit-monitor-title"
          className="rounded-lg border border-zinc-200 bg-white px-5 py-4 shadow-xs"
        >
          <h3 id="edit-monitor-title" className="mb-4 text-base font-semibold text-zinc-900">
            Edit monitor
          </h3>
          <MonitorForm
            siteId={siteId}
            monitor={monitor}
            onSaved={async () => {
              setEditing(false);
              await onChanged();
              done('success', 'Monitor saved.');
            }}
            onCancel={() => {
              setEditing(false);
              requestAnimationFrame(() => editButton.current?.querySelector('button')?.focus());
            }}
          />
        </section>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white px-5 py-4 text-sm shadow-xs md:grid-cols-4">
            <Fact term="Checks">{cadenceLabel(monitor.cadence_seconds)}</Fact>
            <Fact term="Timeout">{monitor.timeout_seconds} s</Fact>
            <Fact term="Last checked">
              {monitor.last_checked_at ? formatDateTime(monitor.last_checked_at) : 'not yet'}
            </Fact>
            <Fact term="Next check">
              {probing.active && probing.nextRoundAt
                ? formatDateTime(probing.nextRoundAt)
                : 'none while stopped'}
            </Fact>
            <Fact term="Extra alert emails" wide>
              {emails.length === 0 ? 'none' : emails.join(', ')}
            </Fact>
            <Fact term="Extra alert webhooks" wide>
              {hooks.length === 0 ? 'none' : `${hooks.length} (${hooks.map((h) => h.kind).join(', ')})`}
            </Fact>
          </dl>
          {canManage ? (
            <div className="flex flex-wrap items-center gap-3">
              <span ref={editButton}>
                <Button onClick={() => setEditing(true)}>Edit</Button>
              </span>
              <Button pending={pausing} onClick={() => void setEnabled(monitor.enabled === 0)}>
                {monitor.enabled === 0 ? 'Resume' : 'Pause'}
              </Button>
              <ConfirmButton
                label="Delete monitor"
                confirmLabel="Delete it and its history"
                onConfirm={remove}
              />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function Fact({ term, wide, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cx('min-w-0', wide && 'col-span-2')}>
      <dt className="text-xs font-medium text-zinc-600">{term}</dt>
      <dd className="break-words text-zinc-900">{children}</dd>
    </div>
  );
}

function OpenIncident({ incident }: { incident: UptimeIncident }) {
  return (
    <Alert tone="danger" title={`Down since ${formatDateTime(incident.down_at)}`}>
      {incident.cause ? `Cause: ${CAUSE_WORDS[incident.cause]}. ` : ''}
      Ongoing for {formatDuration(Date.now() - incident.down_at)}. An alert was queued for the site&apos;s
      uptime recipients and this monitor&apos;s extra ones; another follows when it recovers.
    </Alert>
  );
}

/** The latest round's verdict in a sentence: which regions failed or were slow. */
function ConsensusLine({ consensus }: { consensus: RoundConsensus | null }) {
  if (!consensus) {
    return (
      <p className="mb-3 text-sm text-zinc-600">
        No round has run yet: the first one fires right after the monitor is created.
      </p>
    );
  }
  const parts: string[] = [];
  if (consensus.failedRegions.length > 0) {
    parts.push(`failing in ${listRegions(consensus.failedRegions)}`);
  }
  if (consensus.slowRegions.length > 0) {
    parts.push(`slower than ${formatMs(consensus.slowThresholdMs)} in ${listRegions(consensus.slowRegions)}`);
  }
  return (
    <p className="mb-3 text-sm text-zinc-600">
      Latest round {formatDateTime(consensus.at)}: {consensus.status}
      {parts.length > 0 ? `, ${parts.join('; ')}` : ', every region answered'}.
      {consensus.status === 'degraded' && consensus.degradedBy === 'region'
        ? ' One failing region is shown, not alerted: an incident opens when two or more regions fail.'
        : ''}
    </p>
  );
}
