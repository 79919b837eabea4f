import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { monitorsOverAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  probeResults,
  type UptimeIncident,
  type UptimeMonitor,
  uptimeIncidents,
  uptimeMonitors,
} from '@/lib/db/schema';
import { enqueueNotification, type OutboxNotification } from '@/lib/notify/outbox';
import { queueMonitorIncidentNews } from '@/lib/notify/subscribers';
import type { SentCertWarning } from './certificate';
import { type RoundVerdict, slowThresholdMs } from './consensus';
import type { Expectations } from './expectations';
import type { IncidentTracker } from './incident';
import { coveredAt } from './maintenance';
import { endPauses } from './pauses';
import { probeLocations } from './probers';
import { applyRound, type MonitorRoundState, type UptimeEvent } from './round';
import { LEASE_MS_PER_TIMEOUT_SECOND, nextRoundAt, roundLeaseMs } from './schedule';
import type { MonitorStatus, ProbeTarget, Region, RegionResult } from './types';

/**
 * Rounds in Postgres (README.md, "Scheduling"): due monitors are claimed with a lease, probed, and
 * completed in one transaction that writes the results, the monitor's new state, its incident and
 * the notifications the round fires.
 *
 * A round is one monitor at one scheduled instant (`round_at`, copied from `next_probe_at` when it
 * is claimed). Claiming takes due monitors with `FOR UPDATE SKIP LOCKED` and stamps each with a
 * fresh `lease_id` and a `lease_until` past the round's worst case, so two workers never hold the
 * same round. Only the holder of the lease may complete it; a worker that died leaves its lease to
 * run out, and the round (its `next_probe_at` untouched) is claimed and probed again by another.
 */

export interface ClaimedRound {
  monitorId: string;
  tenantId: string;
  siteId: string;
  url: string;
  timeoutSeconds: number;
  expect: Expectations;
  /** The round's scheduled instant. */
  roundAt: number;
  leaseId: string;
  leaseUntil: number;
}

export const roundTarget = (round: ClaimedRound): ProbeTarget => ({
  monitorId: round.monitorId,
  url: round.url,
  timeoutSeconds: round.timeoutSeconds,
  expect: round.expect,
});

/**
 * Claims up to `limit` rounds due by `now + horizonMs`, round robin across tenants and earliest
 * first within each: monitors enabled, on a site
 * whose Uptime app is on, within the organization's allowance or with overage on (the newest past
 * it are held: lib/billing/monitors.ts), not leased (or whose lease ran out by `now`). Claiming
 * slightly ahead lets the caller start each round at its exact instant from a timer.
 */
/** The advisory lock claims take (any constant unique among the app's advisory locks). */
const ROUND_CLAIM_LOCK = 0x5717_0002;

export async function claimDueRounds(
  db: Db,
  options: { now: number; horizonMs?: number; limit: number },
): Promise<ClaimedRound[]> {
  const { now, horizonMs = 0, limit } = options;
  const leaseId = randomUUID();
  // Claims are serialised (a transaction-scoped advisory lock): each sees the leases the one before
  // it wrote, so two loops never take the same round, and neither takes less than it could.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROUND_CLAIM_LOCK}::bigint)`);
    return queryRows<{
      id: string;
      tenant_id: string;
      site_id: string;
      url: string;
      timeout_seconds: number;
      expected_statuses: string[];
      keyword: string | null;
      keyword_absent: number;
      round_at: string | number;
      lease_until: string | number;
    }>(
      tx,
      sql`update uptime_monitors m
      set round_at = m.next_probe_at, lease_id = ${leaseId},
          lease_until = ${now + roundLeaseMs(0)}::bigint + m.timeout_seconds * ${LEASE_MS_PER_TIMEOUT_SECOND}::bigint
      from (
        -- Round robin across tenants: every tenant's earliest round before any tenant's second, so a
        -- tenant with thousands of due rounds cannot fill a claim another's rounds needed. The due
        -- rows are locked first (skipping those a completion holds), then ranked: a window
        -- function cannot share a query level with FOR UPDATE. Those locked but not taken are
        -- free again when the claim's transaction ends.
        select ranked.id from (
          select c.id, c.next_probe_at,
            row_number() over (partition by c.tenant_id order by c.next_probe_at, c.id) as turn
          from (
            select d.id, d.tenant_id, d.next_probe_at from uptime_monitors d
            join sites s on s.id = d.site_id and s.tenant_id = d.tenant_id
            -- A heartbeat monitor has no rounds: its job pings it (./heartbeats.ts).
            where d.enabled = 1 and d.kind = 'http' and s.uptime_enabled = 1
              and d.next_probe_at <= ${now + horizonMs}::bigint
              and (d.lease_until is null or d.lease_until < ${now}::bigint)
              and d.id not in (select over.id from (${monitorsOverAllowance()}) over)
            for update of d skip locked
          ) c
        ) ranked
        order by ranked.turn, ranked.next_probe_at, ranked.id
        limit ${limit}::int
      ) due
      where m.id = due.id
      returning m.id, m.tenant_id, m.site_id, m.url, m.timeout_seconds, m.expected_statuses, m.keyword,
        m.keyword_absent, m.round_at, m.lease_until`,
    );
  });
  return rows
    .map((r) => ({
      monitorId: r.id,
      tenantId: r.tenant_id,
      siteId: r.site_id,
      url: r.url,
      timeoutSeconds: Number(r.timeout_seconds),
      expect: {
        statuses: r.expected_statuses,
        keyword: r.keyword,
        keywordAbsent: Number(r.keyword_absent) === 1,
      },
      roundAt: Number(r.round_at),
      leaseId,
      leaseUntil: Number(r.lease_until),
    }))
    .sort((a, b) => a.roundAt - b.roundAt);
}

/** Gives claimed rounds back unprobed (a worker stopping): due again at once for any worker. */
export async function releaseRounds(db: Db, rounds: readonly ClaimedRound[]): Promise<void> {
  for (const round of rounds) {
    await db
      .update(uptimeMonitors)
      .set({ lease_id: null, lease_until: null, round_at: null })
      .where(and(eq(uptimeMonitors.id, round.monitorId), eq(uptimeMonitors.lease_id, round.leaseId)));
  }
}

/** What a region's latest probe looks like on the monitor (the live view). */
export type StoredRegionProbe = RegionResult & { roundAt: number };
/** The latest round's consensus on the monitor (the live view). */
export interface StoredConsensus {
  /** When the round was fired. */
  at: number;
  status: Exclude<MonitorStatus, 'unknown'>;
  failedRegions: Region[];
  slowRegions: Region[];
  cause: RoundVerdict['cause'];
  degradedBy: RoundVerdict['degradedBy'];
  slowThresholdMs: number;
}

export function storedProbes(m: UptimeMonitor): Partial<Record<Region, StoredRegionProbe>> {
  return m.latest_probes as Partial<Record<Region, StoredRegionProbe>>;
}

export function storedConsensus(m: UptimeMonitor): StoredConsensus | null {
  return (m.last_consensus as StoredConsensus | null) ?? null;
}

/** The region results an incident keeps from the round that opened it. */
function storedIncidentRegions(i: Pick<UptimeIncident, 'regions'>): RegionResult[] {
  return (i.regions ?? []) as RegionResult[];
}

export interface RoundOutcome {
  /** false when the lease was lost (it ran out and another worker took the round): nothing written. */
  completed: boolean;
  verdict: RoundVerdict | null;
  events: UptimeEvent[];
}

/** A probed round, ready to be completed. `startedAt` is when it was fired. */
export interface ProbedRound {
  round: ClaimedRound;
  results: readonly RegionResult[];
  startedAt: number;
}

/** Results per insert statement: 17 columns each, well under Postgres's 65,535 bound parameters. */
const RESULT_ROWS_PER_INSERT = 2_000;

/** Completes one probed round (see `completeRounds`). */
export async function completeRound(
  db: Db,
  round: ClaimedRound,
  results: readonly RegionResult[],
  startedAt: number,
  now = Date.now(),
): Promise<RoundOutcome> {
  const [outcome] = await completeRounds(db, [{ round, results, startedAt }], now);
  return outcome as RoundOutcome;
}

/**
 * Completes probed rounds in one transaction, each if this worker still holds its lease: stores
 * the regions' results, applies the round (`applyRound`: consensus, status, incident, certificate
 * warnings), writes each monitor's state and next round, opens or closes incidents and queues the
 * notifications (deduplicated, so nothing is sent twice). `startedAt` is when the round was fired:
 * `last_checked_at`, `status_since`, `down_at` and `recovered_at` are measured in it.
 *
 * One transaction for a batch, with one insert for every result and one update for every monitor,
 * rather than a transaction of six statements per round: on the embedded database, which runs one
 * transaction at a time, a thousand rounds finishing together would otherwise queue the next
 * claims behind thousands of statements.
 */
export async function completeRounds(
  db: Db,
  probed: readonly ProbedRound[],
  now = Date.now(),
): Promise<RoundOutcome[]> {
  if (probed.length === 0) return [];
  return db.transaction(async (tx) => {
    const monitors = await tx
      .select()
      .from(uptimeMonitors)
      .where(
        inArray(
          uptimeMonitors.id,
          probed.map((p) => p.round.monitorId),
        ),
      )
      .orderBy(asc(uptimeMonitors.id))
      .for('update');
    const held = new Map(
      monitors
        .filter((m) => probed.some((p) => p.round.monitorId === m.id && p.round.leaseId === m.lease_id))
        .map((m) => [m.id, m]),
    );
    const openIncidents =
      held.size === 0
        ? []
        : await tx
            .select()
            .from(uptimeIncidents)
            .where(
              and(
                inArray(uptimeIncidents.monitor_id, [...held.keys()]),
                isNull(uptimeIncidents.recovered_at),
              ),
            );
    const openOf = new Map(openIncidents.map((i) => [i.monitor_id, i]));
    // Monitors inside a maintenance window when their round started: a failure there opens nothing.
    const inMaintenance = await coveredAt(
      tx,
      probed
        .filter((p) => held.has(p.round.monitorId))
        .map((p) => ({ monitorId: p.round.monitorId, at: p.startedAt })),
    );

    const resultRows: (typeof probeResults.$inferInsert)[] = [];
    const updates: MonitorUpdate[] = [];
    const outcomes: RoundOutcome[] = [];
    // Probed again: a pause the monitor was in ends with this round.
    const resumed: { monitorId: string; at: number }[] = [];
    for (const { round, results, startedAt } of probed) {
      const monitor = held.get(round.monitorId);
      if (!monitor) {
        outcomes.push({ completed: false, verdict: null, events: [] });
        continue;
      }
      const open = openOf.get(monitor.id);
      const applied = applyRound(
        stateOf(monitor, open),
        results,
        monitor.timeout_seconds,
        startedAt,
        inMaintenance.has(monitor.id),
      );
      // An edit during the round (resume, new URL or cadence, pause) set its own next round: kept.
      const next =
        monitor.next_probe_at !== monitor.round_at
          ? monitor.next_probe_at
          : nextRoundAt(monitor.id, monitor.cadence_seconds, round.roundAt, now);
      if (applied.verdict.status === 'unknown') {
        // No region answered (every prober failed as a whole): the round says nothing about the target.
        updates.push({ monitor, next, state: null });
        outcomes.push({ completed: true, verdict: applied.verdict, events: [] });
        // It was probed, so a pause before it ends; not one begun while it was out (paused meanwhile).
        if (monitor.enabled !== 0) resumed.push({ monitorId: monitor.id, at: startedAt });
        continue;
      }
      for (const r of results) resultRows.push(resultRow(monitor, round, r));
      if (monitor.enabled === 0) {
        // Paused while its round was out: the results are history, but the pause closed the
        // incident and the status (./pauses.ts), and a late verdict must not reopen or alert.
        updates.push({ monitor, next, state: null });
        outcomes.push({ completed: true, verdict: applied.verdict, events: [] });
        continue;
      }
      resumed.push({ monitorId: monitor.id, at: startedAt });
      const latest = { ...storedProbes(monitor) };
      for (const r of results) latest[r.region] = { ...r, roundAt: round.roundAt };
      const { status: verdictStatus, ...verdict } = applied.verdict;
      updates.push({
        monitor,
        next,
        state: {
          status: applied.state.status.status,
          statusSince: applied.state.status.statusSince,
          lastCheckedAt: applied.state.lastCheckedAt,
          certWarnings: applied.state.certWarnings,
          latestProbes: latest,
          consensus: {
            ...verdict,
            status: verdictStatus as StoredConsensus['status'],
            at: startedAt,
            slowThresholdMs: slowThresholdMs(monitor.timeout_seconds),
          },
        },
      });
      await writeIncident(tx, monitor, open, applied.state.incident, applied.events, now);
      outcomes.push({ completed: true, verdict: applied.verdict, events: applied.events });
    }
    for (let i = 0; i < resultRows.length; i += RESULT_ROWS_PER_INSERT) {
      await tx.insert(probeResults).values(resultRows.slice(i, i + RESULT_ROWS_PER_INSERT));
    }
    await updateMonitors(tx, updates);
    await endPauses(tx, resumed);
    return outcomes;
  });
}

function stateOf(monitor: UptimeMonitor, open: UptimeIncident | undefined): MonitorRoundState {
  const incident: IncidentTracker = open
    ? {
        open: {
          downAt: open.down_at,
          // Rounds are http monitors', whose incidents have a probe's cause, never missed_heartbeat.
          cause: open.cause === 'missed_heartbeat' ? null : open.cause,
          regions: storedIncidentRegions(open),
        },
        healthyRounds: open.healthy_rounds,
        healthySince: open.healthy_since,
      }
    : { open: null, healthyRounds: 0, healthySince: null };
  return {
    status: { status: monitor.status, statusSince: monitor.status_since },
    incident,
    certWarnings: monitor.cert_warnings as SentCertWarning[],
    lastCheckedAt: monitor.last_checked_at,
  };
}

function resultRow(monitor: UptimeMonitor, round: ClaimedRound, r: RegionResult) {
  return {
    tenant_id: monitor.tenant_id,
    monitor_id: monitor.id,
    region: r.region,
    round_at: round.roundAt,
    checked_at: r.checkedAt,
    ok: r.ok ? 1 : 0,
    status_code: r.status,
    latency_ms: r.totalMs,
    dns_ms: r.phases.dnsMs,
    connect_ms: r.phases.connectMs,
    tls_ms: r.phases.tlsMs,
    first_byte_ms: r.phases.firstByteMs,
    cert_expires_at: r.tlsCertExpiresAt,
    attempts: r.attempts,
    cause: r.cause,
    detail: r.error,
  };
}

/** The incident a round opened, closed or kept open, and the notifications its events queue. */
async function writeIncident(
  tx: Db,
  monitor: UptimeMonitor,
  open: UptimeIncident | undefined,
  tracker: IncidentTracker,
  events: readonly UptimeEvent[],
  now: number,
): Promise<void> {
  let incidentId = open?.id ?? null;
  for (const event of events) {
    if (event.kind === 'opened') {
      const [inserted] = await tx
        .insert(uptimeIncidents)
        .values({
          tenant_id: monitor.tenant_id,
          monitor_id: monitor.id,
          down_at: event.incident.downAt,
          cause: event.incident.cause,
          regions: event.incident.regions,
          created_at: now,
        })
        .returning({ id: uptimeIncidents.id });
      incidentId = inserted?.id ?? null;
    } else if (event.kind === 'recovered' && open) {
      await tx
        .update(uptimeIncidents)
        .set({
          recovered_at: event.incident.recoveredAt,
          closed_by: 'recovery',
          healthy_rounds: 0,
          healthy_since: null,
        })
        .where(eq(uptimeIncidents.id, open.id));
    }
    await enqueueNotification(tx, notificationOf(monitor, event, incidentId, now));
    // The status pages listing the monitor tell their subscribers, in this same transaction.
    if (incidentId && (event.kind === 'opened' || event.kind === 'recovered')) {
      await queueMonitorIncidentNews(
        tx,
        { tenantId: monitor.tenant_id, monitorId: monitor.id, cause: event.incident.cause },
        {
          incidentId,
          event: event.kind === 'opened' ? 'opened' : 'resolved',
          startedAt: event.incident.downAt,
          resolvedAt: event.kind === 'recovered' ? event.incident.recoveredAt : null,
        },
        now,
      );
    }
  }
  const streakMoved =
    open &&
    tracker.open &&
    (open.healthy_rounds !== tracker.healthyRounds || open.healthy_since !== tracker.healthySince);
  if (open && streakMoved) {
    // Still open: keep the healthy streak for the next round.
    await tx
      .update(uptimeIncidents)
      .set({ healthy_rounds: tracker.healthyRounds, healthy_since: tracker.healthySince })
      .where(eq(uptimeIncidents.id, open.id));
  }
}

interface MonitorUpdate {
  monitor: UptimeMonitor;
  next: number | null;
  /** The round's new state; null for a round nobody answered (only the lease and schedule move). */
  state: {
    status: MonitorStatus;
    statusSince: number | null;
    lastCheckedAt: number | null;
    certWarnings: SentCertWarning[];
    latestProbes: Partial<Record<Region, StoredRegionProbe>>;
    consensus: StoredConsensus;
  } | null;
}

/** Every completed monitor's new state and next round, with its lease released, in one statement. */
async function updateMonitors(tx: Db, updates: readonly MonitorUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const rows = updates.map(({ monitor, next, state }) => {
    const s = state ?? {
      status: monitor.status,
      statusSince: monitor.status_since,
      lastCheckedAt: monitor.last_checked_at,
      certWarnings: monitor.cert_warnings as SentCertWarning[],
      latestProbes: storedProbes(monitor),
      consensus: storedConsensus(monitor),
    };
    return sql`(${monitor.id}::uuid, ${next}::bigint, ${s.status}::text, ${s.statusSince}::bigint,
      ${s.lastCheckedAt}::bigint, ${JSON.stringify(s.certWarnings)}::jsonb,
      ${JSON.stringify(s.latestProbes)}::jsonb, ${s.consensus === null ? null : JSON.stringify(s.consensus)}::jsonb)`;
  });
  await tx.execute(sql`update uptime_monitors m set
      next_probe_at = v.next_probe_at, status = v.status, status_since = v.status_since,
      last_checked_at = v.last_checked_at, cert_warnings = v.cert_warnings,
      latest_probes = v.latest_probes, last_consensus = v.last_consensus,
      lease_id = null, lease_until = null, round_at = null
    from (values ${sql.join(rows, sql`, `)})
      as v(id, next_probe_at, status, status_since, last_checked_at, cert_warnings, latest_probes, last_consensus)
    where m.id = v.id`);
}

/**
 * The outbox row of one event (spec: Events; kinds `uptime-down`, `uptime-recovered`,
 * `certificate-expiring`), carrying the monitor's own alert targets for delivery on top of the
 * settings. Keyed on the incident (or certificate and threshold), so a retried round queues once.
 */
/** A monitor's own alert receivers, as its alerts' payloads carry them. */
export function monitorAlertTargets(monitor: Pick<UptimeMonitor, 'alert_emails' | 'alert_webhooks'>) {
  return {
    alertEmails: monitor.alert_emails ?? [],
    // Sealed as the monitor keeps them; delivery opens them (lib/notify/receivers.ts).
    alertWebhooks: monitor.alert_webhooks ?? [],
  };
}

/** The outage alert's event key: one per incident, and how the monitor page finds who it reached. */
export const downAlertKey = (incidentId: string | null) => `uptime-down:${incidentId}`;

function notificationOf(
  monitor: UptimeMonitor,
  event: UptimeEvent,
  incidentId: string | null,
  now: number,
): OutboxNotification {
  const about = {
    monitorId: monitor.id,
    monitorName: monitor.name,
    url: monitor.url,
    ...monitorAlertTargets(monitor),
  };
  const base = { tenantId: monitor.tenant_id, siteId: monitor.site_id, now };
  if (event.kind === 'certificate-expiring') {
    return {
      ...base,
      kind: 'certificate-expiring',
      dedupeKey: `certificate-expiring:${monitor.id}:${event.expiresAt}:${event.days}`,
      payload: { ...about, expiresAt: event.expiresAt, days: event.days },
    };
  }
  const probedFrom = probeLocations();
  const incident = {
    ...about,
    incidentId,
    downAt: event.incident.downAt,
    cause: event.incident.cause,
    // Region names only where the probes really ran there: from one server they would be a fiction.
    failingRegions:
      probedFrom === 'regions' ? event.incident.regions.filter((r) => !r.ok).map((r) => r.region) : [],
    probedFrom,
    detail: event.incident.regions.find((r) => !r.ok)?.error ?? null,
  };
  if (event.kind === 'opened') {
    return { ...base, kind: 'uptime-down', dedupeKey: downAlertKey(incidentId), payload: incident };
  }
  return {
    ...base,
    kind: 'uptime-recovered',
    dedupeKey: `uptime-recovered:${incidentId}`,
    payload: { ...incident, recoveredAt: event.incident.recoveredAt },
  };
}
