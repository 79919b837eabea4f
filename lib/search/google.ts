import { type Config, config } from '@/lib/config';
import { header, httpRequest } from '@/lib/net';
import { jsonBody, type RetryPolicy, requestWithRetries } from '@/lib/net/api';

/**
 * Google's OAuth 2.0 web-server flow and the Search Console API, as documented
 * (developers.google.com/identity/protocols/oauth2/web-server, developers.google.com/webmaster-tools/v1):
 *
 * - authorize: GOOGLE_AUTH_URL?client_id&redirect_uri&response_type=code&scope&access_type=offline
 *   &prompt=consent&state (offline + consent: a refresh token every time);
 * - token: POST GOOGLE_TOKEN_URL, form-encoded, `grant_type=authorization_code` (code exchange:
 *   access_token, refresh_token, id_token, scope) or `refresh_token` (a new access_token); a refresh
 *   token Google no longer honours answers 400 `{"error": "invalid_grant"}`;
 * - revoke: POST GOOGLE_REVOKE_URL, form-encoded `token=`;
 * - GET  {SEARCH_CONSOLE_API_URL}/webmasters/v3/sites -> {siteEntry: [{siteUrl, permissionLevel}]};
 * - POST {SEARCH_CONSOLE_API_URL}/webmasters/v3/sites/{siteUrl}/searchAnalytics/query
 *   {startDate, endDate, dimensions: ['date'], dataState: 'final'} -> {rows: [{keys, clicks, ...}]}.
 *
 * Every call goes through lib/net. No token ever appears in an error message or a log line.
 */

export const SEARCH_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/webmasters.readonly'];
const WEBMASTERS_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';

/** Where Google sends the browser back: registered as the OAuth client's redirect URI. */
export const redirectUri = (c: Config = config()) => `${c.appUrl}/api/search/callback`;

/** Google refused the refresh token (revoked, expired, the account's password changed): reconnect. */
export class GrantRevokedError extends Error {
  override readonly name = 'GrantRevokedError';
}

/** Any other failed call to Google, after retries: `status` is Google's, 0 for no answer. */
export class GoogleApiError extends Error {
  override readonly name = 'GoogleApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function authorizeUrl(state: string, c: Config = config()): string {
  const url = new URL(c.GOOGLE_AUTH_URL);
  url.searchParams.set('client_id', c.GOOGLE_CLIENT_ID ?? '');
  url.searchParams.set('redirect_uri', redirectUri(c));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SEARCH_SCOPES.join(' '));
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', state);
  return url.toString();
}

export interface GrantedTokens {
  refreshToken: string;
  accessToken: string;
  /** The `email` claim of the id_token. */
  email: string | null;
}

/** Options every Google call accepts (tests shorten the retry waits). */
export interface GoogleCallOptions {
  retry?: RetryPolicy;
}

/** Exchanges the authorization code; refuses a grant without the Search Console scope. */
export async function exchangeCode(code: string, options: GoogleCallOptions = {}): Promise<GrantedTokens> {
  const c = config();
  const body = await tokenRequest(
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(c),
      client_id: c.GOOGLE_CLIENT_ID ?? '',
      client_secret: c.GOOGLE_CLIENT_SECRET ?? '',
    },
    options,
  );
  const accessToken = stringField(body, 'access_token');
  const refreshToken = stringField(body, 'refresh_token');
  if (!accessToken || !refreshToken) {
    throw new GoogleApiError(200, 'Google answered the code exchange without an access and a refresh token');
  }
  const scopes = (stringField(body, 'scope') ?? '').split(/\s+/);
  if (!scopes.includes(WEBMASTERS_SCOPE)) {
    await revokeToken(refreshToken).catch(() => {});
    throw new GoogleApiError(
      200,
      'read access to Search Console was not granted: connect again and keep the Search Console box ticked',
    );
  }
  return { accessToken, refreshToken, email: emailOfIdToken(stringField(body, 'id_token'), c) };
}

/** A fresh access token for a stored refresh token; GrantRevokedError when Google refuses it. */
export async function refreshAccessToken(
  refreshToken: string,
  options: GoogleCallOptions = {},
): Promise<string> {
  const c = config();
  const body = await tokenRequest(
    {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: c.GOOGLE_CLIENT_ID ?? '',
      client_secret: c.GOOGLE_CLIENT_SECRET ?? '',
    },
    options,
  );
  const accessToken = stringField(body, 'access_token');
  if (!accessToken) throw new GoogleApiError(200, 'Google answered the refresh without an access token');
  return accessToken;
}

/** Revokes a token at Google. A token Google already forgot (400 invalid_token) counts as revoked. */
export async function revokeToken(token: string): Promise<void> {
  const response = await httpRequest({
    url: config().GOOGLE_REVOKE_URL,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
    timeoutMs: 15_000,
  });
  if (response.status === 200) return;
  const error = stringField(jsonBody(response.body), 'error');
  if (response.status === 400 && error === 'invalid_token') return;
  throw new GoogleApiError(response.status, `Google answered the revocation with ${response.status}`);
}

export type PermissionLevel = 'siteOwner' | 'siteFullUser' | 'siteRestrictedUser' | 'siteUnverifiedUser';

export interface SearchProperty {
  /** `https://www.example.com/` (URL-prefix property) or `sc-domain:example.com` (domain property). */
  siteUrl: string;
  permissionLevel: PermissionLevel;
}

/** The properties the account can read: `siteUnverifiedUser` entries (no access to data) are dropped. */
export async function listProperties(
  accessToken: string,
  options: GoogleCallOptions = {},
): Promise<SearchProperty[]> {
  const response = await apiCall(accessToken, { path: '/webmasters/v3/sites', method: 'GET' }, options);
  const entries = (response as { siteEntry?: unknown }).siteEntry;
  if (!Array.isArray(entries)) return [];
  return entries
    .filter(
      (e): e is SearchProperty =>
        typeof e?.siteUrl === 'string' &&
        typeof e?.permissionLevel === 'string' &&
        e.permissionLevel !== 'siteUnverifiedUser',
    )
    .map((e) => ({ siteUrl: e.siteUrl, permissionLevel: e.permissionLevel }))
    .sort((a, b) => a.siteUrl.localeCompare(b.siteUrl));
}

export interface AnalyticsDay {
  /** `YYYY-MM-DD`. */
  day: string;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

/** Final (`dataState: final`) web search totals per day from `startDate` to `endDate` (inclusive). */
export async function queryDailyAnalytics(
  accessToken: string,
  property: string,
  range: { startDate: string; endDate: string },
  options: GoogleCallOptions = {},
): Promise<AnalyticsDay[]> {
  const response = await apiCall(
    accessToken,
    {
      path: `/webmasters/v3/sites/${encodeURIComponent(property)}/searchAnalytics/query`,
      method: 'POST',
      json: {
        startDate: range.startDate,
        endDate: range.endDate,
        dimensions: ['date'],
        type: 'web',
        dataState: 'final',
        rowLimit: 25_000,
      },
    },
    options,
  );
  const rows = (response as { rows?: unknown }).rows;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) => {
    const day = Array.isArray(row?.keys) ? row.keys[0] : undefined;
    if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return [];
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    return [
      {
        day,
        clicks: Math.round(n(row.clicks)),
        impressions: Math.round(n(row.impressions)),
        ctr: n(row.ctr),
        position: n(row.position),
      },
    ];
  });
}

// --- internals -----------------------------------------------------------------------------

async function tokenRequest(form: Record<string, string>, options: GoogleCallOptions): Promise<unknown> {
  const response = await requestWithRetries(
    {
      url: config().GOOGLE_TOKEN_URL,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      timeoutMs: 15_000,
    },
    options.retry,
  );
  const body = jsonBody(response.body);
  if (response.status === 200) return body;
  const error = stringField(body, 'error');
  if (error === 'invalid_grant') throw new GrantRevokedError('Google refused the stored authorization');
  throw new GoogleApiError(
    response.status,
    `Google's token endpoint answered ${response.status}${error ? ` (${error})` : ''}`,
  );
}

async function apiCall(
  accessToken: string,
  request: { path: string; method: string; json?: unknown },
  options: GoogleCallOptions,
): Promise<Record<string, unknown>> {
  const response = await requestWithRetries(
    {
      url: `${config().SEARCH_CONSOLE_API_URL}${request.path}`,
      method: request.method,
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      ...(request.json === undefined ? {} : { json: request.json }),
      timeoutMs: 30_000,
      maxBytes: 5 * 1024 * 1024,
      onTooLarge: 'error',
    },
    options.retry,
  );
  const body = jsonBody(response.body);
  if (response.status === 200 && body && typeof body === 'object') return body as Record<string, unknown>;
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  const www = header(response.headers, 'www-authenticate');
  throw new GoogleApiError(
    response.status,
    `Search Console answered ${response.status}${typeof message === 'string' ? `: ${message.slice(0, 200)}` : www ? ` (${www.slice(0, 100)})` : ''}`,
  );
}

/**
 * The `email` claim of an id_token. Read without checking its signature, as Google's OpenID
 * Connect guide allows for a token taken straight from its token endpoint over TLS with the client
 * secret; the audience is still checked against our client id.
 */
export function emailOfIdToken(idToken: string | undefined, c: Config = config()): string | null {
  const payload = idToken?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      email?: unknown;
      aud?: unknown;
    };
    if (claims.aud !== undefined && claims.aud !== c.GOOGLE_CLIENT_ID) return null;
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

function stringField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
