import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { type PrivateNetworks, parsePrivateNetworks } from '@/lib/net/private-networks';

/**
 * The whole environment, parsed once. Every variable the product reads is declared here and
 * listed in the README's configuration table; nothing else reads `process.env` directly.
 */
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A price in cents: 0 is a price too (a free plan, an item not charged). */
const cents = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** An empty value reads as unset (a `.env` line `CRUX_API_KEY=` turns the feature off). */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** A base URL, kept without its trailing slash so paths are appended as `${base}/path`. */
const baseUrl = (fallback: string) =>
  z
    .url()
    .default(fallback)
    .transform((v) => v.replace(/\/+$/, ''));

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(3000),
  /**
   * Public base URL of the app: links in mail, the bot user-agent, better-auth's base URL. Unset on
   * Vercel: the deployment's own URL (see `vercelOrigins`); elsewhere `http://localhost:PORT`.
   */
  APP_URL: z.url().optional(),
  /** Unset: embedded PGlite in PGLITE_DIR. Neon host: serverless Pool. Otherwise node-postgres. */
  DATABASE_URL: z.string().optional(),
  PGLITE_DIR: z.string().default('.data/pglite'),
  /**
   * Set to 1 by Vercel in every deployment's functions (and its builds). The server then runs as one
   * of many short-lived functions: no embedded runner, no migrations at start (the build applies
   * them once per deployment), nothing opened at boot; and the settings `hostedProblems` names are required.
   */
  VERCEL: flag,
  /** Set by Vercel: `production`, `preview` or `development`. */
  VERCEL_ENV: optionalText,
  /** Host names Vercel sets, without a scheme: this deployment, its branch's latest, the production domain. */
  VERCEL_URL: optionalText,
  VERCEL_BRANCH_URL: optionalText,
  VERCEL_PROJECT_PRODUCTION_URL: optionalText,
  /**
   * `host:port/path` of a WebSocket proxy to Postgres (Neon's wsproxy, or tests/support/neon-ws-proxy.ts):
   * DATABASE_URL, whatever its host, goes through Neon's serverless driver via it (plain ws:).
   */
  NEON_WS_PROXY: optionalText.pipe(
    z
      .string()
      .refine((v) => wsProxyHost(v) !== undefined, 'must be host:port/path, without a scheme or query')
      .optional(),
  ),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /**
   * Who may tell the server a client's address (rate limits key on it). Unset: nobody, the server
   * is reached directly and uses the connection's address. `vercel`: Vercel's header. Otherwise a
   * comma-separated list of the proxies' addresses or CIDR ranges, which append to X-Forwarded-For.
   */
  TRUSTED_PROXY: z.string().optional(),
  /**
   * Rate limits of /v1 (lib/ratelimit/policies.ts), in requests per fixed window: a calendar minute
   * (an hour for outside sends). 500 a minute per key or session keeps any 60 seconds under 1,000.
   */
  RATE_LIMIT_KEY_PER_MINUTE: int(500),
  RATE_LIMIT_SESSION_PER_MINUTE: int(500),
  RATE_LIMIT_ADDRESS_PER_MINUTE: int(1000),
  RATE_LIMIT_TEST_SENDS_PER_MINUTE: int(10),
  RATE_LIMIT_OUTSIDE_SENDS_PER_HOUR: int(30),
  /**
   * The monthly report's print queue (lib/reports/queue.ts), shared by every server process through
   * the database: Chromium prints at once server-wide (one per organization), and requests that may
   * wait for a turn; past them a download is 429.
   */
  REPORT_PRINTS_MAX: int(2),
  REPORT_PRINT_QUEUE_MAX: int(8),
  /** Public status pages (/status/{slug} and its files), per client address per minute. */
  RATE_LIMIT_STATUS_PAGE_PER_MINUTE: int(300),
  /**
   * /v1 requests of one organization (and of one credential) a server instance works on at once;
   * a few more wait their turn, past them 429 at once (lib/api/in-flight.ts). Bounds a tenant's
   * share of the instance's time.
   */
  API_CONCURRENT_PER_TENANT: int(4),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  /** A self-hosted Inngest server instead of Inngest Cloud (read by the Inngest SDK itself). */
  INNGEST_BASE_URL: z.url().optional(),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.url().default('https://api.resend.com'),
  MAIL_FROM: z.string().default('Sitewatch <noreply@sitewatch.local>'),
  CHROMIUM_PATH: z.string().optional(),
  INCLUDED_SITES: int(3),
  ALLOWANCE_PAGES_CRAWLED: int(5000),
  ALLOWANCE_PAGES_RENDERED: int(1000),
  ALLOWANCE_MONITORS: int(2),
  /**
   * The subscription and the overage list prices, in US cents (lib/billing/pricing.ts): what the
   * billing page shows and the projected bill charges. 0 is allowed (a self-hosted server bills nobody).
   */
  PLAN_NAME: z.string().trim().min(1).default('Standard'),
  PLAN_PRICE_CENTS: cents(4900),
  PRICE_EXTRA_SITE_CENTS: cents(1000),
  PRICE_1000_PAGES_CRAWLED_CENTS: cents(100),
  PRICE_1000_PAGES_RENDERED_CENTS: cents(500),
  PRICE_EXTRA_MONITOR_CENTS: cents(200),
  ORGANIZATIONS_PER_ACCOUNT: int(2),
  /** Lets outbound requests reach loopback and private ranges. Refused in production. */
  ALLOW_PRIVATE_NETWORK: flag,
  /**
   * Private ranges and host names a self-hosted server may reach in production (crawls, renders,
   * probes, webhooks): comma-separated CIDR ranges, addresses, host names and `*.domain` patterns
   * (lib/net/private-networks.ts). Everything else stays public-only.
   */
  PRIVATE_NETWORKS: optionalText,
  /** Start the embedded job runner (scheduler, crawls) in this process. Default on unless Inngest is configured. */
  EMBEDDED_RUNNER: z.enum(['true', 'false', '1', '0', '']).optional(),
  /**
   * Shared secret (32+ characters) signing the coordinator's batches to the hosted probe regions.
   * Unset: the four regions probe in this process, and the region routes refuse every call.
   */
  UPTIME_PROBE_SECRET: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** Base URL of the region routes (`/api/uptime/regions/<region>`); default APP_URL. */
  UPTIME_REGIONS_URL: z
    .url()
    .optional()
    .transform((v) => v?.replace(/\/+$/, '')),
  /**
   * Set by Vercel when the project's Protection Bypass for Automation is on: the uptime coordinator
   * sends it (`x-vercel-protection-bypass`) on every call to the region functions, which a protected
   * preview would otherwise turn away.
   */
  VERCEL_AUTOMATION_BYPASS_SECRET: optionalText,
  /** Chrome UX Report API key. Unset: the Performance app syncs nothing and says so. */
  CRUX_API_KEY: optionalText,
  CRUX_API_URL: baseUrl('https://chromeuxreport.googleapis.com'),
  /** IANA's RDAP bootstrap file for domains (RFC 9224): where each suffix's registry answers RDAP. */
  RDAP_BOOTSTRAP_URL: z.url().default('https://data.iana.org/rdap/dns.json'),
  /** Google OAuth web client of the search connection. Both unset: `configured: false`. */
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTH_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_REVOKE_URL: z.url().default('https://oauth2.googleapis.com/revoke'),
  /** Search Console API base; `/webmasters/v3/...` is appended. */
  SEARCH_CONSOLE_API_URL: baseUrl('https://www.googleapis.com'),
  /** 32 bytes in base64: the AES-256-GCM key of secrets kept at rest (OAuth refresh tokens). */
  ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const key = Buffer.from(v.trim(), 'base64');
      if (key.length !== 32) {
        ctx.addIssue({ code: 'custom', message: `must be 32 bytes in base64 (got ${key.length} bytes)` });
        return z.NEVER;
      }
      return key;
    }),
});

/** Where a request's client address comes from: see TRUSTED_PROXY. */
export type TrustedProxy = { kind: 'none' } | { kind: 'vercel' } | { kind: 'addresses'; ranges: string[] };

export type Config = z.infer<typeof schema> & {
  appUrl: string;
  /** Origins the auth layer accepts requests from: see `trustedOriginsFor`. */
  trustedOrigins: string[];
  trustedProxy: TrustedProxy;
  /** PRIVATE_NETWORKS, parsed: what lib/net lets through besides public addresses. */
  privateNetworks: PrivateNetworks;
  inngestHosted: boolean;
  embeddedRunner: boolean;
  /** Both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set: the search connection can be made. */
  googleConfigured: boolean;
};

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid environment: ${issues}`);
  }
  const c = parsed.data;
  if (c.VERCEL) {
    const problems = hostedProblems(c);
    if (problems.length > 0) throw new Error(`invalid environment on Vercel: ${problems.join('; ')}`);
  }
  if (c.ALLOW_PRIVATE_NETWORK && c.NODE_ENV === 'production') {
    throw new Error(
      'invalid environment: ALLOW_PRIVATE_NETWORK is for development and tests only; to reach private ranges or hosts in production, name them in PRIVATE_NETWORKS (e.g. PRIVATE_NETWORKS=127.0.0.0/8,localhost)',
    );
  }
  if (c.NODE_ENV === 'production' && !c.BETTER_AUTH_SECRET && c.DATABASE_URL) {
    // A hosted deployment (real database) may run several instances with no shared data folder to
    // keep a generated secret in (lib/crypto/auth-secret.ts), so it must be given one.
    throw new Error(
      'invalid environment: BETTER_AUTH_SECRET (32+ characters) is required with DATABASE_URL in production',
    );
  }
  if (c.NODE_ENV === 'production' && c.NEON_WS_PROXY && !isLoopbackHost(wsProxyHost(c.NEON_WS_PROXY))) {
    // The proxy is spoken to in plain ws: the database's traffic, password included, would cross
    // the network in clear.
    throw new Error('invalid environment: NEON_WS_PROXY must be on loopback in production (it is plain ws:)');
  }
  const googleConfigured = Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET);
  if (c.NODE_ENV === 'production' && googleConfigured && !c.ENCRYPTION_KEY) {
    // Without it the key is derived from the auth secret, which a self-hoster may rotate, losing tokens.
    throw new Error(
      'invalid environment: ENCRYPTION_KEY (32 bytes, base64) is required in production when the Google client is configured',
    );
  }
  // On Vercel nothing reaches a function but Vercel's edge, which says who the client is; left at the
  // default (the connection's address) every client would share the edge's address, and one person
  // asking for codes would use up the sign-in rate limit of everyone.
  const trustedProxy = parseTrustedProxy(c.TRUSTED_PROXY?.trim() || (c.VERCEL ? 'vercel' : undefined));
  const privateNetworks = privateNetworksOf(c.PRIVATE_NETWORKS);
  const inngestHosted = Boolean(c.INNGEST_EVENT_KEY || c.INNGEST_SIGNING_KEY || c.INNGEST_DEV);
  const embeddedFlag = c.EMBEDDED_RUNNER;
  const deployment = c.VERCEL ? vercelOrigins(c) : undefined;
  const appUrl = (c.APP_URL ?? deployment?.appUrl ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  return {
    ...c,
    appUrl,
    trustedOrigins: deployment
      ? [...new Set([appUrl, ...deployment.own])]
      : trustedOriginsFor(c.APP_URL, appUrl, c.PORT),
    trustedProxy,
    privateNetworks,
    inngestHosted,
    googleConfigured,
    // Never on Vercel (hostedProblems refuses EMBEDDED_RUNNER=true there): a function lives for one
    // request, so cron triggers and probe loops inside it would run at random or not at all.
    embeddedRunner:
      !c.VERCEL &&
      (embeddedFlag === undefined || embeddedFlag === ''
        ? !inngestHosted
        : embeddedFlag === 'true' || embeddedFlag === '1'),
  };
}

type Parsed = z.infer<typeof schema>;

/**
 * What a Vercel deployment lacks to run as the hosted product, one entry per variable, each naming it.
 * A function has no disk for PGlite and lives for one request, so the embedded defaults (PGlite, the
 * in-process runner, a generated auth secret) cannot stand in: without these it must not start at all,
 * rather than answer with a database that vanishes or jobs that never run.
 */
function hostedProblems(c: Parsed): string[] {
  const problems: string[] = [];
  const need = (name: keyof Parsed, why: string) => {
    if (!c[name]) problems.push(`${name} is required: ${why}`);
  };
  need(
    'DATABASE_URL',
    'the Postgres database (the Neon integration sets it); a function has no disk for the embedded PGlite database',
  );
  need(
    'BETTER_AUTH_SECRET',
    "signs sessions (32+ characters, e.g. `openssl rand -base64 32`); the deployment's instances share no data folder to keep a generated one in",
  );
  need(
    'INNGEST_SIGNING_KEY',
    'background jobs run on Inngest, which signs its calls to /api/inngest with it (the Inngest integration sets it)',
  );
  need('INNGEST_EVENT_KEY', 'sends the events that start crawls, renders and notifications to Inngest');
  if (c.INNGEST_DEV && !['0', 'false'].includes(c.INNGEST_DEV)) {
    // Dev mode turns off the SDK's signature check: anyone could invoke any function.
    problems.push('INNGEST_DEV must be unset: it turns off the signature check of /api/inngest');
  }
  if (c.EMBEDDED_RUNNER === 'true' || c.EMBEDDED_RUNNER === '1') {
    problems.push('EMBEDDED_RUNNER must be unset or false: the in-process runner cannot run in a function');
  }
  if (!c.APP_URL && !vercelOrigins(c).appUrl) {
    problems.push(
      'APP_URL is required when Vercel sets none of VERCEL_PROJECT_PRODUCTION_URL, VERCEL_BRANCH_URL, VERCEL_URL',
    );
  }
  for (const name of ['VERCEL_URL', 'VERCEL_BRANCH_URL', 'VERCEL_PROJECT_PRODUCTION_URL'] as const) {
    const host = c[name];
    if (host && !httpsOrigin(host)) problems.push(`${name} is not a host name: ${host}`);
  }
  return problems;
}

/**
 * The deployment's own origins as Vercel names them. `appUrl` is the address people use: the
 * project's production domain in production, the branch's stable URL on a preview (both fall back to
 * this deployment's own URL). `own` is every address this deployment answers at, which the auth layer
 * trusts, so signing in works whichever of them a person opened. A preview does not trust the
 * production domain: that is another deployment, with another database.
 */
function vercelOrigins(c: Parsed): { appUrl: string | undefined; own: string[] } {
  const production = c.VERCEL_ENV === 'production';
  const at = (host: string | undefined) => (host ? httpsOrigin(host) : undefined);
  const appUrl = production
    ? (at(c.VERCEL_PROJECT_PRODUCTION_URL) ?? at(c.VERCEL_URL))
    : (at(c.VERCEL_BRANCH_URL) ?? at(c.VERCEL_URL));
  const own = [
    production ? at(c.VERCEL_PROJECT_PRODUCTION_URL) : undefined,
    at(c.VERCEL_BRANCH_URL),
    at(c.VERCEL_URL),
  ].filter((origin): origin is string => origin !== undefined);
  return { appUrl, own };
}

/** `https://<host>` for a host name as Vercel writes them (no scheme, no path), else undefined. */
function httpsOrigin(host: string): string | undefined {
  const bare = host.replace(/^https:\/\//, '').replace(/\/+$/, '');
  try {
    const url = new URL(`https://${bare}`);
    return url.host === bare.toLowerCase() ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * With APP_URL set, the app has one public origin and only it is trusted. Unset, the app is the
 * default local install, which people open as `localhost` or as `127.0.0.1` (or `[::1]`) alike: all
 * three spellings of the loopback origin on PORT are trusted, and nothing else.
 */
function trustedOriginsFor(appUrlSetting: string | undefined, appUrl: string, port: number): string[] {
  if (appUrlSetting) return [appUrl];
  return [appUrl, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
}

function privateNetworksOf(value: string | undefined): PrivateNetworks {
  try {
    return parsePrivateNetworks(value);
  } catch (error) {
    throw new Error(`invalid environment: ${(error as Error).message}`);
  }
}

function parseTrustedProxy(value: string | undefined): TrustedProxy {
  const text = value?.trim() ?? '';
  if (text === '') return { kind: 'none' };
  if (text.toLowerCase() === 'vercel') return { kind: 'vercel' };
  const ranges = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = ranges.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length > 0) {
    throw new Error(
      `invalid environment: TRUSTED_PROXY: ${invalid.join(', ')} is not an IP address or CIDR range (or use "vercel")`,
    );
  }
  return { kind: 'addresses', ranges };
}

/** Dotted-quad IPv4 or IPv6, with an optional prefix: the forms better-auth's proxy matching reads. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const v6 = ipaddr.IPv6.isValid(address);
  if (!v6 && !ipaddr.IPv4.isValidFourPartDecimal(address)) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (v6 ? 128 : 32));
}

/** The host of a NEON_WS_PROXY value (`host:port/path`), or undefined when it is not one. */
function wsProxyHost(value: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.includes('?')) return undefined;
  try {
    const url = new URL(`ws://${value}`);
    return url.port ? url.hostname.replace(/^\[(.*)\]$/, '$1') : undefined;
  } catch {
    return undefined;
  }
}

function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between files; this drops the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}
