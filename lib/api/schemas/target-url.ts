import { z } from 'zod';
import { parseRootUrl } from '@/lib/sites/root-url';

/**
 * A URL the service will call on the user's behalf, parsed by the root-URL rules (absolute
 * http(s), a host, no user:password, a host the service could reach: `unreachableTargetReason`),
 * WHATWG-normalized without its fragment: `{rootUrl, hostname}`. A site's `rootUrl` uses it as
 * is; see `targetUrl` for everything else.
 */
export const parsedTargetUrl = z
  .string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be an http(s) URL string'),
  })
  .transform((raw, ctx) => {
    const parsed = parseRootUrl(raw);
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed, input: raw });
      return z.NEVER;
    }
    return parsed;
  });

/**
 * The normalized URL alone (a monitor's URL, a webhook). Path and query are kept: a monitor may
 * watch `/health?deep=1`.
 */
export const targetUrl = parsedTargetUrl.transform((parsed) => parsed.rootUrl);
