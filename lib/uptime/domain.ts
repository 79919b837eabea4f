import { getDomain } from 'tldts';
import type { UptimeMonitor } from '@/lib/db/schema';

/**
 * A monitored host's registrable domain, and the monitor resource's view of its registration
 * (read by ./domain-expiry.ts). Kept apart from the reading so the resource picker imports no
 * network code.
 */

/** What is known of a monitor's domain registration (the resource's `domain_expiry_state`). */
export const DOMAIN_EXPIRY_STATES = [
  'pending',
  'found',
  'no_expiry',
  'not_found',
  'no_rdap',
  'failed',
  'none',
] as const;
export type DomainExpiryState = (typeof DOMAIN_EXPIRY_STATES)[number];

/**
 * The registrable domain (eTLD+1, by the Public Suffix List's ICANN section) of an http(s) URL's
 * host, ASCII (punycode) and lower case; null for an IP address, a bare public suffix or a
 * name with no registrable part.
 */
export function registrableDomain(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  const domain = getDomain(host, { allowPrivateDomains: false });
  return domain ? domain.toLowerCase() : null;
}

export const NOTE_NO_DOMAIN =
  'The host is an IP address or has no registrable domain: there is no registration to expire.';
export const NOTE_PENDING = 'Not read yet: the registry is asked within minutes.';

/**
 * The resource's domain fields: what the latest read of the domain said (copied onto the monitor by
 * ./domain-expiry.ts); `pending` while the URL's domain has not been read; null throughout for a
 * heartbeat monitor, which has no URL.
 */
export function domainExpiryOf(m: UptimeMonitor): {
  domain: string | null;
  domain_expiry_state: DomainExpiryState | null;
  domain_expires_at: number | null;
  domain_expiry_checked_at: number | null;
  domain_expiry_note: string | null;
} {
  if (m.kind !== 'http' || m.url === null) {
    return {
      domain: null,
      domain_expiry_state: null,
      domain_expires_at: null,
      domain_expiry_checked_at: null,
      domain_expiry_note: null,
    };
  }
  if (m.domain_of_url !== m.url) {
    const domain = registrableDomain(m.url);
    return {
      domain,
      domain_expiry_state: domain === null ? 'none' : 'pending',
      domain_expires_at: null,
      domain_expiry_checked_at: null,
      domain_expiry_note: domain === null ? NOTE_NO_DOMAIN : NOTE_PENDING,
    };
  }
  return {
    domain: m.domain,
    domain_expiry_state: m.domain_state ?? 'pending',
    domain_expires_at: m.domain_expires_at,
    domain_expiry_checked_at: m.domain_checked_at,
    domain_expiry_note: m.domain_note ?? (m.domain_state === 'found' ? null : NOTE_PENDING),
  };
}
