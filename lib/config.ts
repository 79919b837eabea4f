import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * The whole environment, parsed once. Every variable the product reads is declared here and
 * listed in the README's configuration table; nothing else reads `process.env` directly.
 */
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

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
  /** Public base URL of the app: links in mail, the bot user-agent, better-auth's base URL. */
  APP_URL: z.url().optional(),
  /** Unset: embedded PGlite in PGLITE_DIR. Neon host: serverless Pool. Otherwise node-postgres. */
  DATABASE_URL: z.string().optional(),
  PGLITE_DIR: z.string().default('.data/pglite'),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /**
   * Who may tell the server a client's address (rate limits key on it). Unset: nobody, the server
   * is reached directly and uses the connection's address. `vercel`: Vercel's header. Otherwise a
   * comma-separated list of the proxies' addresses or CIDR ranges, which append to X-Forwarded-For.
   */
  TRUSTED_PROXY: z.string().optional(),
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
  ORGANIZATIONS_PER_ACCOUNT: int(2),
  /** Lets outbound requests reach loopback and private ranges. Refused in production. */
  ALLOW_PRIVATE_NETWORK: flag,
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
  /** Chrome UX Report API key. Unset: the Performance app syncs nothing and says so. */
  CRUX_API_KEY: optionalText,
  CRUX_API_URL: baseUrl('https://chromeuxreport.googleapis.com'),
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
  if (c.ALLOW_PRIVATE_NETWORK && c.NODE_ENV === 'production') {
    throw new Error('invalid environment: ALLOW_PRIVATE_NETWORK is for development and tests only');
  }
  if (c.NODE_ENV === 'production' && !c.BETTER_AUTH_SECRET && c.DATABASE_URL) {
    // A hosted deployment (real database) may run several instances with no shared data folder to
    // keep a generated secret in (lib/crypto/auth-secret.ts), so it must be given one.
    throw new Error(
      'invalid environment: BETTER_AUTH_SECRET (32+ characters) is required with DATABASE_URL in production',
    );
  }
  const googleConfigured = Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET);
  if (c.NODE_ENV === 'production' && googleConfigured && !c.ENCRYPTION_KEY) {
    // Without it the key is derived from the auth secret, which a self-hoster may rotate, losing tokens.
    throw new Error(
      'invalid environment: ENCRYPTION_KEY (32 bytes, base64) is required in production when the Google client is configured',
    );
  }
  const trustedProxy = parseTrustedProxy(c.TRUSTED_PROXY);
  const inngestHosted = Boolean(c.INNGEST_EVENT_KEY || c.INNGEST_SIGNING_KEY || c.INNGEST_DEV);
  const embeddedFlag = c.EMBEDDED_RUNNER;
  const appUrl = (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  return {
    ...c,
    appUrl,
    trustedOrigins: trustedOriginsFor(c.APP_URL, appUrl, c.PORT),
    trustedProxy,
    inngestHosted,
    googleConfigured,
    embeddedRunner:
      embeddedFlag === undefined || embeddedFlag === ''
        ? !inngestHosted
        : embeddedFlag === 'true' || embeddedFlag === '1',
  };
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

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between files; this drops the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}
