import { and, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { config } from '@/lib/config';
import { seal, unseal } from '@/lib/crypto/secrets';
import type { Db } from '@/lib/db/client';
import type { Site } from '@/lib/db/schema';
import { type SearchStatus, searchAnalytics, searchConnections } from '@/lib/db/schema';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import {
  authorizeUrl,
  exchangeCode,
  type GoogleCallOptions,
  GrantRevokedError,
  listProperties,
  refreshAccessToken,
  revokeToken,
  type SearchProperty,
} from './google';
import { issueState, readState, sessionDigest } from './state';

export type SearchConnectionRow = typeof searchConnections.$inferSelect;

/** Spec: Search connection (projection for display), plus the traffic-drop alert's settings. */
export interface SearchConnectionView {
  configured: boolean;
  status: SearchStatus | null;
  accountEmail: string | null;
  property: string | null;
  analyticsSyncedAt: number | null;
  error: string | null;
  dropAlert: { thresholdPct: number; minClicks: number };
}

export const DEFAULT_DROP_THRESHOLD_PCT = 30;
export const DEFAULT_DROP_MIN_CLICKS = 100;

export const SEO_OFF = 'the SEO app is not enabled for this site';
export const NOT_CONNECTED = 'the site is not connected to a search account';
export const NOT_CONFIGURED =
  'the search connection is not configured on this server (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)';
export const GRANT_REVOKED =
  'Google refused the stored authorization (revoked or expired): connect the search account again';

const tokenContext = (siteId: string) => `search-refresh-token:${siteId}`;

export function connectionView(row: SearchConnectionRow | undefined): SearchConnectionView {
  return {
    configured: config().googleConfigured,
    status: row?.status ?? null,
    accountEmail: row?.account_email ?? null,
    property: row?.property ?? null,
    analyticsSyncedAt: row?.analytics_synced_at ?? null,
    error: row?.error ?? null,
    dropAlert: {
      thresholdPct: row?.drop_threshold_pct ?? DEFAULT_DROP_THRESHOLD_PCT,
      minClicks: row?.drop_min_clicks ?? DEFAULT_DROP_MIN_CLICKS,
    },
  };
}

/** Forgets the site's stored analytics (another account or property, or a disconnect). */
async function dropAnalytics(db: Pick<Db, 'delete'>, site: Pick<Site, 'tenant_id' | 'id'>) {
  await db
    .delete(searchAnalytics)
    .where(and(eq(searchAnalytics.tenant_id, site.tenant_id), eq(searchAnalytics.site_id, site.id)));
}

export async function connectionOf(db: Db, site: Pick<Site, 'tenant_id' | 'id'>) {
  const [row] = await db
    .select()
    .from(searchConnections)
    .where(and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.site_id, site.id)))
    .limit(1);
  return row;
}

/** GET /v1/sites/{id}/search. Readable whatever the SEO app's state (the dashboard explains it). */
export async function getSearchConnection(db: Db, principal: Principal, siteId: string) {
  const site = await getVisibleSite(db, principal, siteId);
  return connectionView(await connectionOf(db, site));
}

/** POST /v1/sites/{id}/search/connect: where to send the browser to grant access. */
export async function startSearchConnect(
  db: Db,
  principal: Principal,
  siteId: string,
  now = Date.now(),
): Promise<{ authorizeUrl: string }> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.seo_enabled !== 1) throw new NotFoundError(SEO_OFF);
  if (!config().googleConfigured) throw new ConflictError(NOT_CONFIGURED);
  if (!principal.userId || !principal.sessionId) {
    throw new ForbiddenError('connecting a search account needs a dashboard session');
  }
  const state = issueState({
    siteId: site.id,
    tenantId: site.tenant_id,
    userId: principal.userId,
    sessionId: principal.sessionId,
    now,
  });
  return { authorizeUrl: authorizeUrl(state) };
}

/** Where the callback sends the browser: the site's Search tab, saying how it went. */
export const searchPagePath = (siteId: string, outcome: 'connected' | CallbackError) =>
  `/sites/${siteId}/search?${outcome === 'connected' ? 'connected=1' : `error=${outcome}`}`;

/**
 * `error=` values of the callback's redirect: access_denied (the user said no on Google's screen),
 * expired (the consent took longer than the state's 30 minutes), scope (Search Console access was
 * unticked), exchange_failed (Google did not complete the code exchange), not_available (the SEO app
 * was turned off or the server's client removed meanwhile).
 */
export type CallbackError = 'access_denied' | 'expired' | 'scope' | 'exchange_failed' | 'not_available';

/**
 * GET /api/search/callback: Google's redirect back. The state must be one this server issued to this
 * session, user and organization (else 403: nothing is stored); then the code is exchanged, the
 * refresh token stored sealed, the account's email recorded, status `pending-property`. Answers the
 * dashboard path to send the browser to.
 */
export async function completeSearchConnect(
  db: Db,
  principal: Principal,
  query: { state?: string; code?: string; error?: string },
  options: GoogleCallOptions & { now?: number } = {},
): Promise<{ siteId: string; redirectTo: string }> {
  const now = options.now ?? Date.now();
  const state = query.state ? readState(query.state) : null;
  if (
    !state ||
    state.tenantId !== principal.tenantId ||
    state.userId !== principal.userId ||
    !principal.sessionId ||
    state.session !== sessionDigest(principal.sessionId)
  ) {
    throw new ForbiddenError(
      'this Google sign-in was not started from your current session: start it again from the site’s Search tab',
    );
  }
  const site = await getVisibleSite(db, principal, state.siteId);
  const done = (outcome: 'connected' | CallbackError) => ({
    siteId: site.id,
    redirectTo: searchPagePath(site.id, outcome),
  });
  if (query.error) return done(query.error === 'access_denied' ? 'access_denied' : 'exchange_failed');
  if (state.expiresAt < now) return done('expired');
  if (site.seo_enabled !== 1 || !config().googleConfigured) return done('not_available');
  if (!query.code) return done('exchange_failed');

  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(query.code, options);
  } catch (error) {
    const scope = error instanceof Error && error.message.startsWith('read access to Search Console');
    return done(scope ? 'scope' : 'exchange_failed');
  }
  const previous = await connectionOf(db, site);
  const values = {
    status: 'pending-property' as const,
    account_email: tokens.email,
    property: null,
    refresh_token_enc: seal(tokens.refreshToken, tokenContext(site.id)),
    analytics_synced_at: null,
    error: null,
    next_sync_at: null,
    drop_alerted: 0 as const,
    updated_at: now,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(searchConnections)
      .values({ tenant_id: site.tenant_id, site_id: site.id, created_at: now, ...values })
      .onConflictDoUpdate({ target: [searchConnections.tenant_id, searchConnections.site_id], set: values });
    // Another account (or the same one again) starts from a clean series.
    await dropAnalytics(tx, site);
  });
  // The grant replaced is of no further use: give it back (best effort).
  const old = previous?.refresh_token_enc ? unseal(previous.refresh_token_enc, tokenContext(site.id)) : null;
  if (old) await revokeToken(old).catch(() => {});
  return done('connected');
}

/**
 * A fresh access token for the connection's stored grant. A grant Google refuses (or one that no
 * longer unseals, ENCRYPTION_KEY having changed) puts the connection in `error`, drops the token and
 * stops its syncing until the account is connected again; GrantRevokedError is thrown.
 */
export async function accessTokenOf(
  db: Db,
  row: SearchConnectionRow,
  options: GoogleCallOptions & { now?: number } = {},
): Promise<string> {
  const refreshToken = row.refresh_token_enc
    ? unseal(row.refresh_token_enc, tokenContext(row.site_id))
    : null;
  try {
    if (!refreshToken) throw new GrantRevokedError('the stored authorization cannot be read');
    return await refreshAccessToken(refreshToken, options);
  } catch (error) {
    if (error instanceof GrantRevokedError) {
      await db
        .update(searchConnections)
        .set({
          status: 'error',
          error: refreshToken
            ? GRANT_REVOKED
            : 'the stored authorization cannot be read (was ENCRYPTION_KEY changed?): connect the search account again',
          refresh_token_enc: null,
          next_sync_at: null,
          updated_at: options.now ?? Date.now(),
        })
        .where(and(eq(searchConnections.tenant_id, row.tenant_id), eq(searchConnections.id, row.id)));
    }
    throw error;
  }
}

/**
 * A connection holding a grant, for a site whose SEO app is on; 404 otherwise, and 409 on a server
 * whose OAuth client was removed (the grant cannot be used without it).
 */
async function connectedRow(db: Db, principal: Principal, siteId: string) {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.seo_enabled !== 1) throw new NotFoundError(SEO_OFF);
  if (!config().googleConfigured) throw new ConflictError(NOT_CONFIGURED);
  const row = await connectionOf(db, site);
  if (!row?.refresh_token_enc) throw new NotFoundError(NOT_CONNECTED);
  return { site, row };
}

/** The account's readable properties, fresh from Google; a refused grant is a 409 saying so. */
async function freshProperties(db: Db, row: SearchConnectionRow, options: GoogleCallOptions) {
  let accessToken: string;
  try {
    accessToken = await accessTokenOf(db, row, options);
  } catch (error) {
    if (error instanceof GrantRevokedError) throw new ConflictError(GRANT_REVOKED);
    throw error;
  }
  return listProperties(accessToken, options);
}

/** GET /v1/sites/{id}/search/properties. */
export async function listSearchProperties(
  db: Db,
  principal: Principal,
  siteId: string,
  options: GoogleCallOptions = {},
): Promise<{ properties: SearchProperty[] }> {
  const { row } = await connectedRow(db, principal, siteId);
  return { properties: await freshProperties(db, row, options) };
}

/**
 * POST /v1/sites/{id}/search/property: the property must be in a fresh list of the account's; the
 * connection becomes `connected` and its first sync is due at once (a 90-day backfill).
 */
export async function chooseSearchProperty(
  db: Db,
  principal: Principal,
  { siteId, property }: { siteId: string; property: string },
  options: GoogleCallOptions & { now?: number } = {},
): Promise<SearchConnectionView> {
  const now = options.now ?? Date.now();
  const { site, row } = await connectedRow(db, principal, siteId);
  const properties = await freshProperties(db, row, options);
  if (!properties.some((p) => p.siteUrl === property)) {
    throw new InvalidError(
      'property',
      `the connected account (${row.account_email ?? 'unknown'}) cannot read ${property}; choose one of GET /v1/sites/${site.id}/search/properties`,
    );
  }
  const [updated] = await db.transaction(async (tx) => {
    if (row.property !== property) await dropAnalytics(tx, site);
    return tx
      .update(searchConnections)
      .set({
        property,
        status: 'connected',
        error: null,
        next_sync_at: now,
        ...(row.property !== property ? { analytics_synced_at: null, drop_alerted: 0 as const } : {}),
        updated_at: now,
      })
      .where(and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.id, row.id)))
      .returning();
  });
  return connectionView(updated);
}

/**
 * DELETE /v1/sites/{id}/search: revokes the grant at Google (best effort: a Google that cannot be
 * reached does not keep the site connected), forgets token, account, property and the stored
 * analytics; status `revoked`. 404 when nothing is connected.
 */
export async function disconnectSearch(
  db: Db,
  principal: Principal,
  siteId: string,
  now = Date.now(),
): Promise<SearchConnectionView> {
  const site = await getVisibleSite(db, principal, siteId);
  const row = await connectionOf(db, site);
  if (!row || row.status === null || row.status === 'revoked') throw new NotFoundError(NOT_CONNECTED);
  const token = row.refresh_token_enc ? unseal(row.refresh_token_enc, tokenContext(site.id)) : null;
  if (token) {
    await revokeToken(token).catch((error: unknown) => {
      console.warn(
        `search: revoking the grant of site ${site.id} failed (${error instanceof Error ? error.message : 'unknown'}); forgotten anyway`,
      );
    });
  }
  const [updated] = await db.transaction(async (tx) => {
    await dropAnalytics(tx, site);
    return tx
      .update(searchConnections)
      .set({
        status: 'revoked',
        account_email: null,
        property: null,
        refresh_token_enc: null,
        analytics_synced_at: null,
        error: null,
        next_sync_at: null,
        drop_alerted: 0,
        updated_at: now,
      })
      .where(and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.id, row.id)))
      .returning();
  });
  return connectionView(updated);
}

/** PATCH /v1/sites/{id}/search: the traffic-drop alert's threshold and minimum baseline. */
export async function updateSearchAlertSettings(
  db: Db,
  principal: Principal,
  siteId: string,
  input: { dropThresholdPct?: number; dropMinClicks?: number },
  now = Date.now(),
): Promise<SearchConnectionView> {
  const site = await getVisibleSite(db, principal, siteId);
  const values = {
    ...(input.dropThresholdPct === undefined ? {} : { drop_threshold_pct: input.dropThresholdPct }),
    ...(input.dropMinClicks === undefined ? {} : { drop_min_clicks: input.dropMinClicks }),
    updated_at: now,
  };
  const [row] = await db
    .insert(searchConnections)
    .values({ tenant_id: site.tenant_id, site_id: site.id, created_at: now, ...values })
    .onConflictDoUpdate({ target: [searchConnections.tenant_id, searchConnections.site_id], set: values })
    .returning();
  return connectionView(row);
}
