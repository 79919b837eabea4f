import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { domainRegistrations, type UptimeMonitor, uptimeMonitors } from '@/lib/db/schema';
import { enqueueNotification } from '@/lib/notify/outbox';
import { NOTE_NO_DOMAIN, registrableDomain } from './domain';
import { expiryWarning, type SentExpiryWarning } from './expiry-warnings';
import { watched } from './heartbeats';
import { lockedMonitor } from './monitors';
import { lookupDomain, type RdapAnswer, rdapBaseFor, rdapBootstrapServices, rdapDomainUrl } from './rdap';
import { monitorAlertTargets } from './rounds';

/**
 * Domain expiry (issue 26 item 7): the registration expiry of each monitored host's registrable
 * domain, read through RDAP (./rdap.ts) and warned 30, 14 and 7 days ahead, beside the
 * certificate warnings (./certificate.ts).
 *
 * Run by the minute scheduler (`refreshDomainExpiry`, the `refresh-domain-expiry` step), which keeps
 * no state between runs and sets no timer; everything it needs is in Postgres:
 * 1. monitors whose URL changed since their domain was derived get it derived again (eTLD+1 from
 *    the Public Suffix List, `tldts`), and a row for a domain not seen before;
 * 2. due domains (read a day ago, or a failure's backoff passed) are claimed with a lease, a few per
 *    minute, round robin across the tenants that watch them, and read from their registry;
 *    what was read is copied onto every monitor of the domain (the tenant's view of it);
 * 3. monitors whose domain is within 30, 14 or 7 days of expiry queue `domain-expiring`, once per
 *    threshold and expiry date (a renewal, a later date, is warned about afresh).
 * The domain rows belong to no tenant (a registration is public); warnings and reads go through
 * the monitors, each its own tenant's.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Days before a domain's registration expires at which a warning is queued. */
export const DOMAIN_WARNING_DAYS = [30, 14, 7] as const;
export type DomainWarningDays = (typeof DOMAIN_WARNING_DAYS)[number];

/** A registration read is read again a day later (registries change expiry dates on renewal only). */
export const DOMAIN_MAX_AGE_MS = DAY_MS;
/** Domains read per scheduler minute, and at once: about 11,500 a day, each read at most daily. */
export const DOMAINS_PER_MINUTE = 8;
const DOMAINS_AT_ONCE = 4;
/** A claimed domain is left to others when its reader has not finished by then. */
const DOMAIN_LEASE_MS = 2 * 60_000;
/** A failed read is tried again after 1 h, 2 h, 4 h... and at least daily. */
const FAILURE_BACKOFF_MS = HOUR_MS;
/** A 429's Retry-After is respected up to a week; without one, an hour. */
const MAX_RETRY_AFTER_MS = 7 * DAY_MS;
/** Monitors whose domain is derived, and monitors looked at for warnings, per minute. */
const MONITORS_PER_MINUTE = 500;

export interface DomainExpiryOptions {
  /** Domains read this run (default DOMAINS_PER_MINUTE). */
  batch?: number;
  /** Each read's deadline (default RDAP_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** The scheduler step: derive, read, warn (see the module comment). */
export async function refreshDomainExpiry(db: Db, now: number, options: DomainExpiryOptions = {}) {
  const derived = await deriveMonitorDomains(db, now);
  const read = await readDueDomains(db, now, options);
  const warned = await queueDomainWarnings(db, now);
  return { derived, read, warned };
}

/** Step 1: the domain of each http monitor whose URL changed since it was derived. */
export async function deriveMonitorDomains(db: Db, now: number): Promise<number> {
  const stale = await queryRows<{ id: string; url: string }>(
    db,
    sql`select m.id, m.url from ${uptimeMonitors} m
      where m.kind = 'http' and m.url is not null and m.domain_of_url is distinct from m.url
      order by m.id limit ${MONITORS_PER_MINUTE}::int`,
  );
  for (const { id, url } of stale) {
    const domain = registrableDomain(url);
    if (domain === null) {
      await db
        .update(uptimeMonitors)
        .set({
          domain: null,
          domain_of_url: url,
          domain_state: 'none',
          domain_expires_at: null,
          domain_checked_at: null,
          domain_note: NOTE_NO_DOMAIN,
          domain_warnings: [],
        })
        .where(and(eq(uptimeMonitors.id, id), eq(uptimeMonitors.url, url)));
      continue;
    }
    await db
      .insert(domainRegistrations)
      .values({ domain, next_check_at: now, created_at: now })
      .onConflictDoNothing();
    // The monitor takes what is known of the domain; the warnings sent start over with a new domain.
    await db.execute(sql`update ${uptimeMonitors} m set domain = r.domain, domain_of_url = ${url},
        domain_state = r.state, domain_expires_at = r.expires_at, domain_checked_at = r.checked_at,
        domain_note = r.note,
        domain_warnings = case when m.domain is distinct from r.domain then '[]'::jsonb else m.domain_warnings end
      from ${domainRegistrations} r
      where r.domain = ${domain} and m.id = ${id}::uuid and m.url = ${url}`);
  }
  return stale.length;
}

/** http monitors watched now (enabled, the site's Uptime app on, within the allowance), over `m`. */
const watchedHttp = () => watched('http');

/** Step 2: due domains claimed (leased) and read, round robin across the tenants watching them. */
export async function readDueDomains(
  db: Db,
  now: number,
  options: DomainExpiryOptions = {},
): Promise<number> {
  const batch = options.batch ?? DOMAINS_PER_MINUTE;
  const due = await queryRows<{ domain: string }>(
    db,
    sql`select ranked.domain from (
        select w.domain, w.next_check_at,
          row_number() over (partition by w.tenant_id order by w.next_check_at, w.domain) as turn
        from (
          select distinct m.tenant_id, r.domain, r.next_check_at
          from ${domainRegistrations} r
          join ${uptimeMonitors} m on m.domain = r.domain and m.domain_of_url = m.url
          where r.next_check_at <= ${now}::bigint
            and (r.lease_until is null or r.lease_until < ${now}::bigint)
            and ${watchedHttp()}
        ) w
      ) ranked
      group by ranked.domain
      order by min(ranked.turn), min(ranked.next_check_at), ranked.domain
      limit ${batch}::int`,
  );
  if (due.length === 0) return 0;
  // The lease: a domain another run claimed meanwhile is not taken (the condition is re-checked
  // on the locked row).
  const claimed = await queryRows<{ domain: string }>(
    db,
    sql`update ${domainRegistrations} r set lease_until = ${now + DOMAIN_LEASE_MS}::bigint
      where r.domain in (${sql.join(
        due.map((d) => sql`${d.domain}`),
        sql`, `,
      )})
        and r.next_check_at <= ${now}::bigint and (r.lease_until is null or r.lease_until < ${now}::bigint)
      returning r.domain`,
  );
  if (claimed.length === 0) return 0;
  const bootstrap = await rdapBootstrapServices(db, now);
  // A server that said 429 is asked nothing more this run: its other domains wait as long.
  const limitedUntil = new Map<string, number>();
  const queue = claimed.map((c) => c.domain);
  const worker = async () => {
    for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
      const base = rdapBaseFor(bootstrap.services, domain);
      let outcome: Outcome;
      if (base === null) {
        outcome = bootstrap.error
          ? { state: 'failed', reason: bootstrap.error, url: null }
          : { state: 'no_rdap', url: null };
      } else {
        const server = new URL(base).origin;
        const until = limitedUntil.get(server);
        if (until !== undefined) {
          outcome = { state: 'limited', until, url: rdapDomainUrl(base, domain) };
        } else {
          const answer = await lookupDomain(base, domain, { timeoutMs: options.timeoutMs, now });
          outcome = outcomeOf(answer, now, rdapDomainUrl(base, domain));
          if (outcome.state === 'limited') limitedUntil.set(server, outcome.until);
        }
      }
      await recordOutcome(db, domain, outcome, now);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DOMAINS_AT_ONCE, claimed.length) }, worker));
  return claimed.length;
}

type Outcome =
  | { state: 'found'; expiresAt: number; url: string }
  | { state: 'no_expiry' | 'not_found'; url: string }
  | { state: 'no_rdap'; url: null }
  | { state: 'limited'; until: number; url: string }
  | { state: 'failed'; reason: string; url: string | null };

function outcomeOf(answer: RdapAnswer, now: number, url: string): Outcome {
  switch (answer.kind) {
    case 'found':
      return answer.expiresAt === null
        ? { state: 'no_expiry', url }
        : { state: 'found', expiresAt: answer.expiresAt, url };
    case 'not-found':
      return { state: 'not_found', url };
    case 'limited':
      return {
        state: 'limited',
        until: now + Math.min(Math.max(answer.retryAfterMs ?? HOUR_MS, 60_000), MAX_RETRY_AFTER_MS),
        url,
      };
    case 'failed':
      return { state: 'failed', reason: answer.reason, url };
  }
}

function noteOf(outcome: Outcome, domain: string): string | null {
  const suffix = domain.slice(domain.indexOf('.') + 1);
  switch (outcome.state) {
    case 'found':
      return null;
    case 'no_expiry':
      return "The registry's RDAP record of the domain gives no expiry date.";
    case 'not_found':
      return 'The registry has no record of the domain.';
    case 'no_rdap':
      return `The registry of .${suffix} has no RDAP server (IANA's bootstrap file lists none), so the expiry cannot be read.`;
    case 'limited':
      return `The registry's RDAP server asked to be asked later (HTTP 429); read again after ${new Date(outcome.until).toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
    case 'failed':
      return `The latest read failed: ${outcome.reason}. It is tried again later.`;
  }
}

/** The domain's row, and every monitor's copy of it, in one transaction; the lease released. */
async function recordOutcome(db: Db, domain: string, outcome: Outcome, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(domainRegistrations)
      .where(eq(domainRegistrations.domain, domain))
      .for('update');
    if (!row) return;
    const answered =
      outcome.state === 'found' || outcome.state === 'no_expiry' || outcome.state === 'not_found';
    const failures = answered || outcome.state === 'no_rdap' ? 0 : row.failures + 1;
    const next =
      outcome.state === 'limited'
        ? outcome.until
        : outcome.state === 'failed'
          ? now + Math.min(FAILURE_BACKOFF_MS * 2 ** Math.min(failures - 1, 10), DAY_MS)
          : now + DOMAIN_MAX_AGE_MS;
    const state = outcome.state === 'limited' ? 'failed' : outcome.state;
    const [updated] = await tx
      .update(domainRegistrations)
      .set({
        state,
        // A failure keeps the last date read: it is still the best known.
        expires_at: outcome.state === 'found' ? outcome.expiresAt : answered ? null : row.expires_at,
        note: noteOf(outcome, domain),
        rdap_url: outcome.url,
        checked_at: now,
        read_at: answered ? now : row.read_at,
        next_check_at: next,
        failures,
        lease_until: null,
      })
      .where(eq(domainRegistrations.domain, domain))
      .returning();
    if (!updated) return;
    await tx
      .update(uptimeMonitors)
      .set({
        domain_state: updated.state,
        domain_expires_at: updated.expires_at,
        domain_checked_at: updated.checked_at,
        domain_note: updated.note,
      })
      .where(eq(uptimeMonitors.domain, domain));
  });
}

/** Step 3: the warnings due, one transaction per monitor (its row locked, so two runs queue once). */
export async function queueDomainWarnings(db: Db, now: number): Promise<number> {
  const within = Math.max(...DOMAIN_WARNING_DAYS) * DAY_MS;
  const due = await queryRows<{ id: string }>(
    db,
    sql`select m.id from ${uptimeMonitors} m
      where m.domain_expires_at is not null and m.domain_of_url = m.url
        and m.domain_expires_at <= ${now + within}::bigint and ${watchedHttp()}
        and exists (
          select 1 from unnest(${sql.raw(`array[${DOMAIN_WARNING_DAYS.join(',')}]`)}::int[]) t(days)
          where m.domain_expires_at <= ${now}::bigint + t.days * ${DAY_MS}::bigint
            and not m.domain_warnings @> jsonb_build_array(
              jsonb_build_object('expiresAt', m.domain_expires_at, 'days', t.days)))
      order by m.domain_expires_at, m.id limit ${MONITORS_PER_MINUTE}::int`,
  );
  let queued = 0;
  for (const { id } of due) {
    if (await warnMonitor(db, id, now)) queued++;
  }
  return queued;
}

async function warnMonitor(db: Db, monitorId: string, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const monitor = await lockedMonitor(tx, monitorId);
    if (!monitor?.domain || monitor.domain_expires_at === null) return false;
    const expiresAt = monitor.domain_expires_at;
    const sent = monitor.domain_warnings as SentExpiryWarning[];
    const decision = expiryWarning(DOMAIN_WARNING_DAYS, expiresAt, now, sent);
    if (decision.send === null) return false;
    await tx
      .update(uptimeMonitors)
      .set({
        // Only this expiry date's warnings are kept: an earlier date's were for a registration renewed since.
        domain_warnings: [
          ...sent.filter((w) => w.expiresAt === expiresAt),
          ...decision.record.map((days) => ({ expiresAt, days })),
        ],
      })
      .where(eq(uptimeMonitors.id, monitor.id));
    return enqueueNotification(tx, domainWarningOf(monitor, monitor.domain, expiresAt, decision.send, now));
  });
}

function domainWarningOf(
  monitor: UptimeMonitor,
  domain: string,
  expiresAt: number,
  days: DomainWarningDays,
  now: number,
) {
  return {
    tenantId: monitor.tenant_id,
    siteId: monitor.site_id,
    now,
    kind: 'domain-expiring' as const,
    dedupeKey: `domain-expiring:${monitor.id}:${domain}:${expiresAt}:${days}`,
    payload: {
      monitorId: monitor.id,
      monitorName: monitor.name,
      url: monitor.url,
      ...monitorAlertTargets(monitor),
      domain,
      expiresAt,
      days,
    },
  };
}
