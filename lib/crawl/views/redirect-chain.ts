import type { StoredRedirectHop } from '@/lib/db/schema';

/** One response of a redirect chain: its status and the URL that answered it. */
export interface RedirectHopResource {
  status: number | null;
  url: string;
}

/**
 * A stored redirect chain (the final response included) as its hops, each picked as `{status, url}`
 * in that order: the spec's JSON-encoded `redirect_chain` is written from these, and jsonb keeps an
 * object's keys in an order of its own.
 */
export function redirectHops(chain: readonly StoredRedirectHop[] | null): RedirectHopResource[] {
  return (chain ?? []).map(({ status, url }) => ({ status, url }));
}

/** The spec's `redirect_chain`: the hops as a JSON-encoded array, null when there was no redirect. */
export function encodeRedirectChain(chain: readonly StoredRedirectHop[] | null): string | null {
  return chain === null ? null : JSON.stringify(redirectHops(chain));
}
