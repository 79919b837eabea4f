'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type {
  MonitorMetrics,
  MonitorResponse,
  MonitorSnapshot,
  RoundConsensus,
  UptimeIncident,
  UptimeWindow,
} from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useInPlaceEditor } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { cx } from '@/components/ui/cx';
import { ExternalLink } from '@/components/ui/external-link';
import { Alert, EmptyState, LoadError, Loading, Skeleton, Stat } from '@/components/ui/surface';
import { formatDateTime, formatDuration } from '@/lib/format';
import { AlertedLine, NobodyAlertedWarning } from './alerted-line';
import { DomainExpiry } from './domain-expiry';
import { IncidentList } from './incident-list';
import { LatencyChart, RANGES, type RangeHours } from './latency-chart';
import { MonitorForm } from './monitor-form';
import { MonitorStatusBadge } from './monitor-status';
import { PingUrlPanel } from './ping-url';
import { usePlaces } from './places';
import { ProbingNotice, resumedMessage } from './probing-notice';
import { RegionCards } from './region-cards';
import {
  CAUSE_WORDS,
  cadenceLabel,
  durationWords,
  formatMs,
  formatPct,
  heartbeatLabel,
  listRegions,
  monitorLabel,
  parseAlertEmails,
  parseAlertWebhooks,
  statusOf,
} from './words';

/** The live state is polled this often while the page is open and visible. */
const LIVE_POLL_MS = 10_000;

/**
 * One monitor: its status (live: polled while the tab is visible), each region's latest probe with
 * phase timings and certificate expiry, its domain's registration expiry, uptime over 24 h / 7 d / 30 d / 90 d, per-region latency by
 * hour, the incidents of the last 90 days; edit, pause or resume, delete.
 */
export function MonitorView({
  siteId,
  monitorId,
  canManage,
  monitorsPerSite,
}: {
  siteId: string;
  monitorId: string;
  canManage: boolean;
  /** ALLOWANCE_MONITORS, for the notice of a monitor held past the allowance. */
  monitorsPerSite: number;
}) {
  const base = `/v1/sites/${siteId}/uptime/monitors/${monitorId}`;
  // One read for the status, the banner, the incident list and the percentages (issue 24 item 4):
  // polled, so an ongoing incident's downtime grows on the page as it does in fact.
  const live = useApi<MonitorSnapshot>(`${base}/live`, { refreshInterval: LIVE_POLL_MS });
  const [range, setRange] = useState<RangeHours>(24);
  const places = usePlaces();
  // The latency chart's closed hours change only when an hour closes: the shown range is read (each
  // range once, then from the cache when chosen again), not polled.
  const latency = useApi<MonitorMetrics>(`${base}/metrics?hours=${range}`);

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
    return <LoadError title="Could not load the monitor" error={live.error} onRetry={live.mutate} />;
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
        monitorsPerSite={monitorsPerSite}
        onChanged={async () => {
          await live.mutate();
        }}
      />
      {live.error ? (
        <Alert tone="warning">
          Live updates paused: {live.error.message}. The figures below may be out of date.
        </Alert>
      ) : null}

      {state.monitor.kind === 'heartbeat' ? (
        <Part id="ping" title="Ping URL">
          <PingUrlPanel
            siteId={siteId}
            monitor={state.monitor}
            canManage={canManage}
            onRotated={() => void live.mutate()}
          />
        </Part>
      ) : (
        <Part id="regions" title={places.probedFrom === 'regions' ? 'Regions' : 'Probes'}>
          {places.probedFrom === 'server' ? (
            <p className="mb-2 text-sm text-zinc-600">
              All four probes run from this server (one location), at the same moment; an outage needs two of
              them to fail. Continents are named only when Sitewatch runs its hosted probe regions.
            </p>
          ) : null}
          <ConsensusLine consensus={state.consensus} />
          <RegionCards regions={state.regions} consensus={state.consensus} />
          <DomainExpiry monitor={state.monitor} />
        </Part>
      )}

      <Part id="uptime" title="Uptime">
        <p className="mb-3 text-sm text-zinc-600">
          The share of each period not covered by an incident (an outage two or more {places.unit}s
          confirmed), counted from when the monitor was created and leaving out the time it was paused,
          stopped or held (nothing checked it then).
        </p>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {RANGES.map((r) => (
            <UptimeStat
              key={r.hours}
              label={r.label}
              window={state.uptime.find((w) => w.hours === r.hours)}
              createdAt={state.monitor.created_at}
              checked={state.monitor.last_checked_at !== null}
            />
          ))}
        </dl>
      </Part>

      {state.monitor.kind === 'heartbeat' ? null : (
        <Part id="latency" title={`Latency by ${places.unit}`}>
          <LatencyChart range={range} onRange={setRange} buckets={latency.data?.hours} />
          {latency.error ? (
            <LoadError title="Could not load the latency" error={latency.error} onRetry={latency.mutate} />
          ) : null}
        </Part>
      )}

      <Part id="incidents" title="Incidents in the last 90 days">
        <IncidentList incidents={state.incidents} at={state.at} answeringSince={answeringSince(state)} />
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
  window,
  createdAt,
  checked,
}: {
  label: string;
  window: UptimeWindow | undefined;
  createdAt: number;
  /** Before the first round there is nothing to count: no figure rather than a hollow 100%. */
  checked: boolean;
}) {
  let value = '—';
  let hint = 'no checks yet';
  if (window && checked) {
    value = formatPct(window.uptimePct);
    hint =
      window.uptimePct === null
        ? 'the monitor did not exist yet'
        : `${window.incidents === 0 ? 'no incidents' : `${window.incidents} incident${window.incidents === 1 ? '' : 's'}`}${
            createdAt > window.fromMs ? ', since it was created' : ''
          }`;
  }
  return <Stat label={label} value={value} hint={hint} />;
}

/** The monitor's name, URL, status and settings, its state notices, and the owner's actions. */
function Header({
  siteId,
  state,
  canManage,
  monitorsPerSite,
  onChanged,
}: {
  siteId: string;
  state: MonitorSnapshot;
  canManage: boolean;
  monitorsPerSite: number;
  onChanged: () => Promise<void>;
}) {
  const router = useRouter();
  const { monitor, probing, openIncident } = state;
  const editor = useInPlaceEditor<HTMLElement, HTMLSpanElement>();
  const editing = editor.open;
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string; at: number } | null>(null);
  const [pausing, setPausing] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const label = monitorLabel(monitor);
  const places = usePlaces();
  const status = statusOf(monitor, state, places.names);

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
          ? resumedMessage(probing, places.unit)
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
          {monitor.url ? (
            <p className="mt-1 text-sm break-all text-zinc-600">
              <ExternalLink href={monitor.url} className="hover:underline">
                {monitor.url}
              </ExternalLink>
            </p>
          ) : (
            <p className="mt-1 text-sm text-zinc-600">Heartbeat: {heartbeatLabel(monitor).toLowerCase()}.</p>
          )}
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

      {openIncident ? (
        <OpenIncident
          incident={openIncident}
          at={state.at}
          answeringSince={answeringSince(state)}
          alerting={state.alerting}
        />
      ) : null}
      <NobodyAlertedWarning
        alerting={state.alerting}
        // The down banner (not the recovering one) carries the alerted line.
        bannerShown={Boolean(openIncident) && answeringSince(state) === null}
      />
      <ProbingNotice
        probing={probing}
        siteId={siteId}
        canManage={canManage}
        monitorsPerSite={monitorsPerSite}
      />

      {editing ? (
        <section
          ref={editor.editorRef}
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
              editor.closeEditor({ returnFocus: false });
              await onChanged();
              done('success', 'Monitor saved.');
            }}
            onCancel={() => editor.closeEditor()}
          />
        </section>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white px-5 py-4 text-sm shadow-xs md:grid-cols-4">
            {monitor.kind === 'heartbeat' ? (
              // Nothing probes a heartbeat: its job pings, and the deadline is when a missing ping
              // opens the incident.
              <>
                <Fact term="Expected every">{durationWords(monitor.period_seconds ?? 0)}</Fact>
                <Fact term="Grace">
                  {monitor.grace_seconds ? durationWords(monitor.grace_seconds) : 'none'}
                </Fact>
                <Fact term="Last ping">
                  {monitor.last_ping_at ? formatDateTime(monitor.last_ping_at) : 'none yet'}
                </Fact>
                <Fact term="Late after">
                  {probing.active && probing.nextRoundAt
                    ? formatDateTime(probing.nextRoundAt)
                    : 'never while stopped'}
                </Fact>
              </>
            ) : (
              <>
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
              </>
            )}
            <Fact term="Extra alert emails" wide>
              {emails.length === 0 ? 'none' : emails.join(', ')}
            </Fact>
            <Fact term="Extra alert webhooks" wide>
              {hooks.length === 0 ? 'none' : `${hooks.length} (${hooks.map((h) => h.kind).join(', ')})`}
            </Fact>
          </dl>
          {canManage ? (
            <div className="flex flex-wrap items-center gap-3">
              <span ref={editor.openerRef}>
                <Button
                  onClick={() => {
                    // The last result's line goes: it would stand above the form's errors.
                    setResult(null);
                    editor.openEditor();
                  }}
                >
                  Edit
                </Button>
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

/**
 * When the target answered again while its incident stays open (the status is up or degraded: the
 * incident closes only after two healthy rounds in a row), or null. The badge, the banner and the
 * incident list all say so, rather than "Up" beside "Down … ongoing".
 */
function answeringSince(state: MonitorSnapshot): number | null {
  const { monitor, openIncident } = state;
  if (!openIncident || (monitor.status !== 'up' && monitor.status !== 'degraded')) return null;
  return monitor.status_since;
}

function OpenIncident({
  incident,
  at,
  answeringSince,
  alerting,
}: {
  incident: UptimeIncident;
  at: number;
  answeringSince: number | null;
  alerting: MonitorSnapshot['alerting'];
}) {
  if (answeringSince !== null) {
    return (
      <Alert
        tone="warning"
        title={`Answering again since ${formatDateTime(answeringSince)}: confirming the recovery`}
      >
        Down from {formatDateTime(incident.down_at)}
        {incident.cause ? ` (${CAUSE_WORDS[incident.cause]})` : ''}. The incident closes, and the recovery
        alert goes out, after two healthy rounds in a row; until then it counts as down.
      </Alert>
    );
  }
  return (
    <Alert tone="danger" title={`Down since ${formatDateTime(incident.down_at)}`}>
      <p>
        {incident.cause ? `Cause: ${CAUSE_WORDS[incident.cause]}. ` : ''}
        Ongoing for {formatDuration(at - incident.down_at)}.
      </p>
      <AlertedLine alerting={alerting} />
    </Alert>
  );
}

/** The latest round's verdict in a sentence: which regions failed or were slow. */
function ConsensusLine({ consensus }: { consensus: RoundConsensus | null }) {
  const { names, unit } = usePlaces();
  if (!consensus) {
    return (
      <p className="mb-3 text-sm text-zinc-600">
        No round has run yet: the first one fires right after the monitor is created.
      </p>
    );
  }
  const parts: string[] = [];
  if (consensus.failedRegions.length > 0) {
    parts.push(`failing in ${listRegions(consensus.failedRegions, names)}`);
  }
  if (consensus.slowRegions.length > 0) {
    parts.push(
      `slower than ${formatMs(consensus.slowThresholdMs)} in ${listRegions(consensus.slowRegions, names)}`,
    );
  }
  return (
    <p className="mb-3 text-sm text-zinc-600">
      Latest round {formatDateTime(consensus.at)}: {consensus.status}
      {parts.length > 0 ? `, ${parts.join('; ')}` : `, every ${unit} answered`}.
      {consensus.status === 'degraded' && consensus.degradedBy === 'region'
        ? ` One failing ${unit} is shown, not alerted: an incident opens when two or more ${unit}s fail.`
        : ''}
    </p>
  );
}
