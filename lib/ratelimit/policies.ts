import { type Config, config } from '@/lib/config';

/**
 * The rate limits of the API, each a quota of hits per fixed window counted per subject:
 *
 * - `address`: every /v1 request, per client address (lib/auth/client-address.ts), signed in or not;
 * - `key` and `session`: every request made with an API key, or with a dashboard session, per key or
 *   session;
 * - `test-send`: test notifications (POST /v1/notifications/test), per organization;
 * - `outside-send`: mail or webhook requests the organization asks for, on the spot, to an address it
 *   does not own (lib/ratelimit/sends.ts), per organization;
 * - `status-page`: requests for a public status page and its files (lib/statuspages/serve.ts), per
 *   client address, apart from `address` so visitors behind one NAT do not spend its API quota.
 *
 * Windows are fixed (a calendar minute or hour): the count starts again when the window ends, so
 * `RateLimit` can say exactly when, and a request refused past the quota costs no more than one
 * accepted. At a window's edge a client may use two windows' quota within one window's time: the
 * default per key or session (500 a minute) keeps any 60 seconds under 1,000 requests.
 */
export const POLICY_NAMES = [
  'address',
  'key',
  'session',
  'test-send',
  'outside-send',
  'status-page',
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export type Policy = {
  name: PolicyName;
  /** Hits allowed per window. */
  quota: number;
  windowSeconds: number;
  /** The limit in words, completing "at most <quota> ...". */
  unit: string;
};

export function policy(name: PolicyName, c: Config = config()): Policy {
  switch (name) {
    case 'address':
      return {
        name,
        quota: c.RATE_LIMIT_ADDRESS_PER_MINUTE,
        windowSeconds: 60,
        unit: 'requests a minute per client address',
      };
    case 'key':
      return {
        name,
        quota: c.RATE_LIMIT_KEY_PER_MINUTE,
        windowSeconds: 60,
        unit: 'requests a minute per API key',
      };
    case 'session':
      return {
        name,
        quota: c.RATE_LIMIT_SESSION_PER_MINUTE,
        windowSeconds: 60,
        unit: 'requests a minute per session',
      };
    case 'test-send':
      return {
        name,
        quota: c.RATE_LIMIT_TEST_SENDS_PER_MINUTE,
        windowSeconds: 60,
        unit: 'test sends a minute per organization',
      };
    case 'outside-send':
      return {
        name,
        quota: c.RATE_LIMIT_OUTSIDE_SENDS_PER_HOUR,
        windowSeconds: 3600,
        unit: 'mails or webhook requests an hour per organization to addresses it does not own',
      };
    case 'status-page':
      return {
        name,
        quota: c.RATE_LIMIT_STATUS_PAGE_PER_MINUTE,
        windowSeconds: 60,
        unit: 'status page requests a minute per client address',
      };
  }
}
