import { unreachableTargetReason } from '@/lib/net';
import { MAX_ROOT_URL_LENGTH } from './limits';

export type ParsedRootUrl = { rootUrl: string; hostname: string };

/**
 * Checks a site's root URL and derives the crawl whitelist from it. Accepted: absolute http(s) URLs
 * with a host and no user:password (credentials would be stored in clear and sent to every page).
 * A host the service could never reach (a private or loopback address, `localhost`, a single-label
 * name; see `unreachableTargetReason`) is refused here, when the URL is saved.
 * The stored form is WHATWG-normalized (lowercase scheme and host, default port dropped, `/` path
 * for a bare origin) without the fragment, which never reaches a server.
 * Returns the reason for refusal as a string, phrased to follow the field name.
 */
export function parseRootUrl(input: string): ParsedRootUrl | string {
  const raw = input.trim();
  if (raw === '') return 'must be an http(s) URL such as https://example.com';
  if (raw.length > MAX_ROOT_URL_LENGTH) return `must be at most ${MAX_ROOT_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL such as https://example.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must use http or https, not ${url.protocol.slice(0, -1)}`;
  }
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  url.hash = '';
  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === '') return 'must name a host';
  const unreachable = unreachableTargetReason(url);
  if (unreachable) return unreachable;
  return { rootUrl: url.href, hostname };
}
