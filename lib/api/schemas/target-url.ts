import { z } from 'zod';
import { parseRootUrl } from '@/lib/sites/root-url';

/**
 * A URL the service will call on the user's behalf (a monitor's URL, a webhook): checked by the
 * same rules as a site's root URL (absolute http(s), a host, no user:password, a host the service
 * could reach: `unreachableTargetReason`), and stored WHATWG-normalized without its fragment.
 * Path and query are kept: a monitor may watch `/health?deep=1`.
 */
export const targetUrl = z
  .string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be an http(s) URL string'),
  })
  .transform((raw, ctx) => {
    const parsed = parseRootUrl(raw);
    if (typeof parsed === 'string') {
      ctx.addIssue({ code: 'custom', message: parsed, input: raw });
      return z.NEVER;
    }
    return parsed.rootUrl;
  });
