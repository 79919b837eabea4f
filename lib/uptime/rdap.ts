import { and, eq, lte } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { rdapBootstrap } from '@/lib/db/schema';
import { fetchFollowing, NetError } from '@/lib/net';
import { jsonBody, retryAfterMs } from '@/lib/net/api';

/**
 * An RDAP client for domain registrations: the registry's RDAP server found through IANA's
 * bootstrap file (RFC 9224), cached in Postgres and read again at most daily, and the domain's
 * record (RFC 9083) read from it, the registration's expiry being its `expiration` event.
 *
 * Both answers come from servers we do not run: every request goes through lib/net (public
 * addresses only, redirects checked hop by hop) with a deadline and a body cap, and every way an
 * answer can be wrong (slow, huge, not JSON, not a domain, a date that is no date) is a failure in
 * words, never an exception. A 429 is handed back with its Retry-After (RFC 7480 section 5.5).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The bootstrap is read again a day after it was read (IANA updates it a few times a month). */
export const BOOTSTRAP_MAX_AGE_MS = DAY_MS;
/** After a failed read of the bootstrap, the next try (the copy in hand, if any, is used meanwhile). */
const BOOTSTRAP_RETRY_MS = HOUR_MS;
/** While one worker reads the bootstrap, the others use the copy in hand. */
const BOOTSTRAP_LEASE_MS = 5 * 60_000;
/** IANA's dns.json is about 40 KB; a copy past 2 MiB is not one. */
const BOOTSTRAP_MAX_BYTES = 2 * 1024 * 1024;
/** A domain's RDAP record is a few KB (entities, notices, links); past 256 KiB it is not a record. */
export const RDAP_MAX_BYTES = 256 * 1024;
/** One deadline for connect, headers and body, redirects included. */
export const RDAP_TIMEOUT_MS = 10_000;
/** RDAP servers redirect to the authoritative one (RFC 7480 section 5.2); a few hops at most. */
const RDAP_MAX_REDIRECTS = 3;

const ACCEPT = 'application/rdap+json, application/json;q=0.9';

/** The DNS bootstrap as kept: each label suffix (`com`, `co.uk`...) and its RDAP base URLs. */
export type RdapServices = Record<string, string[]>;

/** The bootstrap in hand: its services, or why there is none. */
export type Bootstrap = { services: RdapServices; error: string | null };

/**
 * The services of an RFC 9224 registry file, or null when the file is not one. An entry that is not
 * `[[labels...], [urls...]]` is skipped, as is a URL that is not http(s).
 */
export function parseBootstrap(json: unknown): RdapServices | null {
  if (
    typeof json !== 'object' ||
    json === null ||
    !Array.isArray((json as { services?: unknown }).services)
  ) {
    return null;
  }
  const services: RdapServices = {};
  for (const entry of (json as { services: unknown[] }).services) {
    if (!Array.isArray(entry) || !Array.isArray(entry[0]) || !Array.isArray(entry[1])) continue;
    const urls = (entry[1] as unknown[]).filter(
      (u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u),
    );
    if (urls.length === 0) continue;
    for (const label of entry[0] as unknown[]) {
      if (typeof label === 'string' && label.trim() !== '') services[label.trim().toLowerCase()] = urls;
    }
  }
  return services;
}

/**
 * The RDAP base URL for `domain` (ASCII, lower case): the longest label suffix the bootstrap lists
 * (RFC 9224 section 4), an https URL when the entry has one; null when no registry there runs RDAP.
 */
export function rdapBaseFor(services: RdapServices, domain: string): string | null {
  const labels = domain.split('.');
  for (let i = 1; i < labels.length; i++) {
    const urls = services[labels.slice(i).join('.')];
    if (urls) return urls.find((u) => u.toLowerCase().startsWith('https:')) ?? urls[0] ?? null;
  }
  return null;
}

/**
 * The bootstrap, read through the cache: the stored copy while it is younger than a day; past that
 * one worker (a lease on the row) reads it again while the others go on with the copy in hand. A
 * failed read keeps the old copy and is tried again within the hour.
 */
export async function rdapBootstrapServices(db: Db, now: number): Promise<Bootstrap> {
  await db
    .insert(rdapBootstrap)
    .values({ registry: 'dns', services: {}, next_fetch_at: 0 })
    .onConflictDoNothing();
  const [claimed] = await db
    .update(rdapBootstrap)
    .set({ next_fetch_at: now + BOOTSTRAP_LEASE_MS })
    .where(and(eq(rdapBootstrap.registry, 'dns'), lte(rdapBootstrap.next_fetch_at, now)))
    .returning({ registry: rdapBootstrap.registry });
  if (claimed) {
    const read = await fetchBootstrap();
    await db
      .update(rdapBootstrap)
      .set(
        'services' in read
          ? {
              services: read.services,
              fetched_at: now,
              checked_at: now,
              error: null,
              next_fetch_at: now + BOOTSTRAP_MAX_AGE_MS,
            }
          : { checked_at: now, error: read.error, next_fetch_at: now + BOOTSTRAP_RETRY_MS },
      )
      .where(eq(rdapBootstrap.registry, 'dns'));
  }
  const [row] = await db.select().from(rdapBootstrap).where(eq(rdapBootstrap.registry, 'dns'));
  return {
    services: row?.services ?? {},
    error:
      row?.fetched_at == null ? (row?.error ?? "IANA's RDAP bootstrap file has not been read yet") : null,
  };
}

async function fetchBootstrap(): Promise<{ services: RdapServices } | { error: string }> {
  const url = config().RDAP_BOOTSTRAP_URL;
  try {
    const response = await fetchFollowing({
      url,
      headers: { accept: 'application/json' },
      timeoutMs: RDAP_TIMEOUT_MS,
      maxBytes: BOOTSTRAP_MAX_BYTES,
      onTooLarge: 'error',
      maxRedirects: RDAP_MAX_REDIRECTS,
    });
    if (response.status !== 200)
      return { error: `IANA's RDAP bootstrap file answered HTTP ${response.status}` };
    const services = parseBootstrap(jsonBody(response.body));
    return services ? { services } : { error: "IANA's RDAP bootstrap file is not an RFC 9224 registry" };
  } catch (error) {
    return { error: `IANA's RDAP bootstrap file could not be read: ${failureOf(error)}` };
  }
}

/** What a registry's RDAP server said about a domain. */
export type RdapAnswer =
  /** The record; `expiresAt` null when it has no `expiration` event (some registries publish none). */
  | { kind: 'found'; expiresAt: number | null }
  /** 404: the registry has no such domain. */
  | { kind: 'not-found' }
  /** 429: asked to come back later, after `retryAfterMs` when the server said. */
  | { kind: 'limited'; retryAfterMs: number | null }
  | { kind: 'failed'; reason: string };

/** `domain/{name}` under an RDAP base URL (which RFC 9224 says ends with a slash; added if not). */
export const rdapDomainUrl = (base: string, domain: string) =>
  `${base.endsWith('/') ? base : `${base}/`}domain/${encodeURIComponent(domain)}`;

/** The domain's record from the RDAP server at `base` (RFC 9083), judged; never throws. */
export async function lookupDomain(
  base: string,
  domain: string,
  options: { timeoutMs?: number; now?: number } = {},
): Promise<RdapAnswer> {
  let response: Awaited<ReturnType<typeof fetchFollowing>>;
  try {
    response = await fetchFollowing({
      url: rdapDomainUrl(base, domain),
      headers: { accept: ACCEPT },
      timeoutMs: options.timeoutMs ?? RDAP_TIMEOUT_MS,
      maxBytes: RDAP_MAX_BYTES,
      onTooLarge: 'error',
      maxRedirects: RDAP_MAX_REDIRECTS,
    });
  } catch (error) {
    return { kind: 'failed', reason: failureOf(error) };
  }
  if (response.status === 404) return { kind: 'not-found' };
  if (response.status === 429) {
    return { kind: 'limited', retryAfterMs: retryAfterMs(response.headers, options.now ?? Date.now()) };
  }
  const json = jsonBody(response.body);
  if (response.status !== 200) {
    const title = rdapErrorTitle(json);
    return {
      kind: 'failed',
      reason: `the RDAP server answered HTTP ${response.status}${title ? ` (${title})` : ''}`,
    };
  }
  return domainRecord(json);
}

/** RFC 9083 section 6: an error answer's `title`, if it has one worth showing. */
function rdapErrorTitle(json: unknown): string | null {
  const title = typeof json === 'object' && json !== null ? (json as { title?: unknown }).title : null;
  return typeof title === 'string' && title.trim() !== '' ? title.trim().slice(0, 200) : null;
}

/** An RFC 9083 domain object's expiry: the earliest valid `expiration` event's date. */
export function domainRecord(json: unknown): RdapAnswer {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'failed', reason: 'the RDAP server answered something that is not JSON' };
  }
  const record = json as { objectClassName?: unknown; events?: unknown };
  if (record.objectClassName !== undefined && record.objectClassName !== 'domain') {
    return { kind: 'failed', reason: 'the RDAP server answered an object that is not a domain' };
  }
  if (record.events !== undefined && !Array.isArray(record.events)) {
    return { kind: 'failed', reason: "the RDAP answer's events are not a list" };
  }
  const expirations = ((record.events as unknown[] | undefined) ?? []).filter(
    (e): e is { eventDate?: unknown } =>
      typeof e === 'object' && e !== null && (e as { eventAction?: unknown }).eventAction === 'expiration',
  );
  if (expirations.length === 0) return { kind: 'found', expiresAt: null };
  const dates = expirations
    .map((e) => (typeof e.eventDate === 'string' ? Date.parse(e.eventDate) : Number.NaN))
    .filter((d) => Number.isFinite(d));
  if (dates.length === 0)
    return { kind: 'failed', reason: "the RDAP answer's expiration date is not a date" };
  return { kind: 'found', expiresAt: Math.min(...dates) };
}

function failureOf(error: unknown): string {
  if (error instanceof NetError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}
