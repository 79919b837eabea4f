import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody, startServer, type TestServer } from './http-server';

/*
 * Local stand-ins for Google's APIs, speaking their documented request and response formats:
 *
 * - the CrUX History API (developer.chrome.com/docs/crux/history-api): POST
 *   /v1/records:queryHistoryRecord with the key in X-Goog-Api-Key, `{origin, formFactor?, metrics,
 *   collectionPeriodCount}`, answering `{record: {key, metrics: {<name>: {percentilesTimeseries:
 *   {p75s}}}, collectionPeriods: [{firstDate, lastDate}]}}` or 404 `{error: {code: 404, message,
 *   status: "NOT_FOUND"}}`; 429 RESOURCE_EXHAUSTED when told to;
 * - Google's OAuth 2.0 endpoints (developers.google.com/identity/protocols/oauth2/web-server):
 *   POST /token (form: authorization_code or refresh_token grants; `invalid_grant` for a revoked
 *   refresh token), POST /revoke (form `token`);
 * - the Search Console API (developers.google.com/webmaster-tools/v1): GET /webmasters/v3/sites,
 *   POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query.
 */

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
};

// ---- CrUX ------------------------------------------------------------------------------------

/** One weekly point as a test writes it; `cls` as a string, the way the API sends it. */
export interface CruxPoint {
  lastDate: string;
  lcp?: number | null;
  inp?: number | null;
  cls?: string | null;
  ttfb?: number | null;
}

const ymd = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return { year, month, day };
};
const minusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** A queryHistoryRecord answer with every metric's p75 series aligned with the periods. */
export function cruxRecord(origin: string, formFactor: string | undefined, points: CruxPoint[]) {
  const series = (pick: (p: CruxPoint) => number | string | null | undefined) => ({
    histogramTimeseries: [
      { start: 0, end: 1, densities: points.map(() => 'NaN') },
      { start: 1, densities: points.map(() => 'NaN') },
    ],
    percentilesTimeseries: { p75s: points.map((p) => pick(p) ?? null) },
  });
  return {
    record: {
      key: { origin, ...(formFactor ? { formFactor } : {}) },
      metrics: {
        largest_contentful_paint: series((p) => p.lcp),
        interaction_to_next_paint: series((p) => p.inp),
        cumulative_layout_shift: series((p) => p.cls),
        experimental_time_to_first_byte: series((p) => p.ttfb),
      },
      collectionPeriods: points.map((p) => ({
        firstDate: ymd(minusDays(p.lastDate, 27)),
        lastDate: ymd(p.lastDate),
      })),
    },
  };
}

export interface FakeCrux {
  server: TestServer;
  baseUrl: string;
  /** What each (origin, form factor) answers; absent: 404 NOT_FOUND. `ALL` when formFactor is omitted. */
  data: Map<string, CruxPoint[]>;
  /** Answers 429 with this Retry-After (seconds) to the next N queries. */
  throttleNext(count: number, retryAfterSeconds: number): void;
  /** Every query received, parsed. */
  queries: {
    origin: string;
    formFactor?: string;
    metrics: string[];
    collectionPeriodCount: number;
    key: string;
  }[];
}

export const cruxKey = (origin: string, formFactor = 'ALL') => `${origin} ${formFactor}`;

export async function startFakeCrux(apiKey: string, host = '127.0.0.1'): Promise<FakeCrux> {
  const data = new Map<string, CruxPoint[]>();
  const queries: FakeCrux['queries'] = [];
  let throttle = { count: 0, retryAfter: 0 };
  const server = await startServer(host, {
    'POST /v1/records:queryHistoryRecord': async (req: IncomingMessage, res: ServerResponse) => {
      const body = JSON.parse(await readRequestBody(req));
      const key = String(req.headers['x-goog-api-key'] ?? '');
      queries.push({ ...body, key });
      if (key !== apiKey) {
        return json(res, 400, {
          error: {
            code: 400,
            message: 'API key not valid. Please pass a valid API key.',
            status: 'INVALID_ARGUMENT',
          },
        });
      }
      if (throttle.count > 0) {
        throttle.count--;
        return json(
          res,
          429,
          { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } },
          { 'retry-after': String(throttle.retryAfter) },
        );
      }
      const points = data.get(cruxKey(body.origin, body.formFactor ?? 'ALL'));
      if (!points) {
        return json(res, 404, {
          error: { code: 404, message: 'chrome ux report data not found', status: 'NOT_FOUND' },
        });
      }
      json(res, 200, cruxRecord(body.origin, body.formFactor, points));
    },
  });
  return {
    server,
    baseUrl: server.origin,
    data,
    queries,
    throttleNext(count, retryAfterSeconds) {
      throttle = { count, retryAfter: retryAfterSeconds };
    },
  };
}

// ---- OAuth and Search Console ----------------------------------------------------------------

export interface FakeGoogle {
  server: TestServer;
  url: (path: string) => string;
  /** Authorization codes the consent screen "issued": code -> the account that granted it. */
  codes: Map<string, { email: string; scope?: string }>;
  /** Refresh tokens issued and still honoured -> the account's email. */
  refreshTokens: Map<string, string>;
  /** Access tokens issued -> the account's email. */
  accessTokens: Map<string, string>;
  revoked: string[];
  /** Every refresh token ever issued, revoked ones included. */
  issuedRefreshTokens: string[];
  /** Per account: `siteEntry` of sites.list. */
  sites: Map<string, { siteUrl: string; permissionLevel: string }[]>;
  /** Per property: daily rows Search Console holds (final ones). */
  analytics: Map<
    string,
    { day: string; clicks: number; impressions: number; ctr: number; position: number }[]
  >;
  /** Every searchAnalytics.query body received, with its property. */
  analyticsQueries: { property: string; body: Record<string, unknown> }[];
  /** Issues a code as the consent screen would after the user agreed. */
  grant(email: string, scope?: string): string;
}

let issued = 0;
const nextToken = (prefix: string) => `${prefix}-${++issued}-${Math.random().toString(36).slice(2)}`;

function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', kid: 'test', typ: 'JWT' })}.${part(claims)}.${Buffer.from('signature').toString('base64url')}`;
}

export const SEARCH_SCOPE =
  'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/webmasters.readonly';

export async function startFakeGoogle(
  clientId: string,
  clientSecret: string,
  host = '127.0.0.1',
): Promise<FakeGoogle> {
  const codes = new Map<string, { email: string; scope?: string }>();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, string>();
  const revoked: string[] = [];
  const issuedRefreshTokens: string[] = [];
  const sitesOf = new Map<string, { siteUrl: string; permissionLevel: string }[]>();
  const analytics: FakeGoogle['analytics'] = new Map();
  const analyticsQueries: FakeGoogle['analyticsQueries'] = [];

  const bearerAccount = (req: IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    return token ? accessTokens.get(token) : undefined;
  };
  const unauthenticated = (res: ServerResponse) =>
    json(res, 401, {
      error: {
        code: 401,
        message: 'Request had invalid authentication credentials.',
        status: 'UNAUTHENTICATED',
      },
    });

  const server = await startServer(host, {
    'POST /token': async (req, res) => {
      const form = new URLSearchParams(await readRequestBody(req));
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return json(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
      }
      if (form.get('grant_type') === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        if (!grant || !form.get('redirect_uri')) {
          return json(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
        }
        codes.delete(form.get('code') ?? '');
        const access = nextToken('ya29.access');
        const refresh = nextToken('1//refresh');
        accessTokens.set(access, grant.email);
        refreshTokens.set(refresh, grant.email);
        issuedRefreshTokens.push(refresh);
        return json(res, 200, {
          access_token: access,
          expires_in: 3599,
          refresh_token: refresh,
          scope: grant.scope ?? SEARCH_SCOPE,
          token_type: 'Bearer',
          id_token: idToken({
            iss: 'https://accounts.google.com',
            aud: clientId,
            sub: '1234567890',
            email: grant.email,
            email_verified: true,
          }),
        });
      }
      if (form.get('grant_type') === 'refresh_token') {
        const email = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!email)
          return json(res, 400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          });
        const access = nextToken('ya29.access');
        accessTokens.set(access, email);
        return json(res, 200, {
          access_token: access,
          expires_in: 3599,
          scope: SEARCH_SCOPE,
          token_type: 'Bearer',
        });
      }
      json(res, 400, { error: 'unsupported_grant_type' });
    },
    'POST /revoke': async (req, res) => {
      const token = new URLSearchParams(await readRequestBody(req)).get('token') ?? '';
      if (!refreshTokens.delete(token) && !accessTokens.delete(token)) {
        return json(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      }
      revoked.push(token);
      json(res, 200, {});
    },
    'GET /webmasters/v3/sites': (req, res) => {
      const email = bearerAccount(req);
      if (!email) return unauthenticated(res);
      const entries = sitesOf.get(email) ?? [];
      json(res, 200, entries.length ? { siteEntry: entries } : {});
    },
    '*': async (req, res) => {
      const match = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(
        (req.url ?? '').split('?')[0] ?? '',
      );
      if (req.method !== 'POST' || !match?.[1])
        return json(res, 404, { error: { code: 404, message: 'Not Found' } });
      const email = bearerAccount(req);
      if (!email) return unauthenticated(res);
      const property = decodeURIComponent(match[1]);
      const body = JSON.parse(await readRequestBody(req));
      analyticsQueries.push({ property, body });
      if (
        !(sitesOf.get(email) ?? []).some(
          (s) => s.siteUrl === property && s.permissionLevel !== 'siteUnverifiedUser',
        )
      ) {
        return json(res, 403, {
          error: {
            code: 403,
            message: `User does not have sufficient permission for site '${property}'.`,
            status: 'PERMISSION_DENIED',
          },
        });
      }
      const rows = (analytics.get(property) ?? [])
        .filter((r) => r.day >= body.startDate && r.day <= body.endDate)
        .map((r) => ({
          keys: [r.day],
          clicks: r.clicks,
          impressions: r.impressions,
          ctr: r.ctr,
          position: r.position,
        }));
      json(
        res,
        200,
        rows.length
          ? { rows, responseAggregationType: 'byProperty' }
          : { responseAggregationType: 'byProperty' },
      );
    },
  });
  return {
    server,
    url: (path) => server.url(path),
    codes,
    refreshTokens,
    accessTokens,
    revoked,
    issuedRefreshTokens,
    sites: sitesOf,
    analytics,
    analyticsQueries,
    grant(email, scope) {
      const code = nextToken('4/0code');
      codes.set(code, { email, scope });
      return code;
    },
  };
}
