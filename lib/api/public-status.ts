import { clientAddress } from '@/lib/auth/client-address';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { type LimitState, refuseOverLimit } from '@/lib/ratelimit/counter';
import { LocalCounter } from '@/lib/ratelimit/local';
import { policy } from '@/lib/ratelimit/policies';
import { renderAtom } from '@/lib/statuspages/atom';
import { renderBadge } from '@/lib/statuspages/badge';
import { StatusPageCache } from '@/lib/statuspages/cache';
import { PAGE_CSP, renderStatusHtml } from '@/lib/statuspages/html';
import { type PublicStatus, readPublicStatus } from '@/lib/statuspages/public';
import { slugProblem } from '@/lib/statuspages/slug';
import { errorResponse } from './errors';
import { rateLimitHeaders, withRateLimitHeaders } from './rate-limit';

/*
 * The HTTP side of the public status pages: /status/{slug} and its summary.json, feed.atom and
 * badge.svg (app/status/[slug]/**). No credential is read and no cookie is set; every request counts
 * against its client address (`status-page` policy, apart from the API's); an unknown, malformed or
 * unpublished slug is 404 before anything else is said.
 *
 * The common request touches no database (issue 26 item 8: 200 visitors at once): the count is
 * this process's own, handed over to the shared counters once a second (lib/ratelimit/local.ts);
 * the page's fingerprint, the ETag, is Postgres's as of at most a second ago, and the rendition
 * made for it is remembered (lib/statuspages/cache.ts). Both are memos of what any instance can
 * recompute: a change shows on every instance within FINGERPRINT_FRESH_MS, and behind a CDN within
 * its s-maxage more (CACHE_CONTROL).
 */

export type Rendition = 'html' | 'json' | 'atom' | 'svg';

const HEADERS: Record<Rendition, Record<string, string>> = {
  html: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP },
  json: {
    'content-type': 'application/json; charset=utf-8',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    // Public data: a widget on the organization's own site may read it.
    'access-control-allow-origin': '*',
  },
  atom: {
    'content-type': 'application/atom+xml; charset=utf-8',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  },
  svg: {
    'content-type': 'image/svg+xml; charset=utf-8',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    // Embedded as an <img> on other sites, including ones that isolate themselves (COEP).
    'cross-origin-resource-policy': 'cross-origin',
  },
};

/**
 * A shared cache (Vercel's CDN, any proxy) serves a copy for SHARED_FRESH_S seconds, then, while it
 * revalidates in the background (ETag, 304 when nothing changed), the stale copy for up to
 * SHARED_STALE_S more: a burst of visitors reaches the function about once per page per edge
 * location every few seconds. Browsers keep nothing (max-age=0; Vercel also strips s-maxage from
 * what it passes on) and revalidate each time.
 */
const SHARED_FRESH_S = 5;
const SHARED_STALE_S = 25;
export const CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_FRESH_S}, stale-while-revalidate=${SHARED_STALE_S}`;

const RENDER: Record<Rendition, (status: PublicStatus) => string> = {
  html: renderStatusHtml,
  json: (status) => JSON.stringify(status),
  atom: renderAtom,
  svg: renderBadge,
};

/**
 * A rendition as sent: its bytes, encoded once per fingerprint (undici copies a string body on every
 * response; bytes it hands on). Compression is the host's: Next's own on a self-hosted server,
 * Vercel's edge when hosted. A body gzipped here was gzipped again by `next start` (the browser
 * showed the gzip bytes: Next drops a route handler's Content-Encoding, FORBIDDEN_HEADERS in
 * next/dist/server/send-response.js, and compresses the body again).
 */
type Encoded = Uint8Array<ArrayBuffer>;

/** This process's memos: fingerprints and renditions of the pages, and the visitors' counts. */
const pages = new StatusPageCache<Encoded>();
const utf8 = new TextEncoder();

/**
 * The kept bytes as a response body, not copied: undici copies a Uint8Array body on every Response
 * (its extractBody slices the buffer), which with the page's size was the largest part of a
 * request's CPU; a stream's chunk is handed on as it is. Every response shares the one chunk, which
 * nothing downstream writes to (Next pipes it to the socket, its compression reads it). Next sends
 * a handler's body as a stream in any case (it drops Content-Length, send-response.js).
 */
function streamOf(bytes: Encoded): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const visitors = new LocalCounter({ flushEveryMs: 1_000, maxSubjects: 10_000 });

const NOT_FOUND_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>No status page here</title></head><body><main><h1>No status page here</h1><p>This address does not hold a status page.</p></main></body></html>`;

export function notFound(rendition: Rendition): Response {
  if (rendition === 'html') {
    return new Response(NOT_FOUND_HTML, {
      status: 404,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'",
      },
    });
  }
  return Response.json({ error: 'status page not found' }, { status: 404 });
}

/** Whether If-None-Match names `etag` (a list, or `*`). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * Counts one request of the public status surface against its client address (the page, its files,
 * the subscription pages of lib/api/public-subscribe.ts). The caller refuses past the limit
 * (`refuseOverLimit`), after keeping the states for the answer's RateLimit headers.
 */
export async function countStatusVisit(req: Request): Promise<LimitState[]> {
  const c = config();
  const address = clientAddress(req.headers, c.trustedProxy);
  // Without a client address (a test calling the handler directly) there is nobody to count.
  return address ? [await visitors.hit(getDb, policy('status-page', c), address)] : [];
}

export async function servePublicStatus(req: Request, slug: string, rendition: Rendition): Promise<Response> {
  let limits: LimitState[] = [];
  try {
    limits = await countStatusVisit(req);
    refuseOverLimit(limits);
    const fingerprint = slugProblem(slug) === null ? await pages.fingerprint(await getDb(), slug) : undefined;
    if (!fingerprint) return withRateLimitHeaders(notFound(rendition), limits);
    const etag = `"${fingerprint.tag}-${rendition}"`;
    // One headers object per answer, the rate-limit fields included (no copy of the Response).
    const headers = {
      ...HEADERS[rendition],
      etag,
      'cache-control': CACHE_CONTROL,
      vary: 'accept-encoding',
      ...rateLimitHeaders(limits),
    };
    if (matches(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    const body = await pages.body({ slug, tag: fingerprint.tag, kind: rendition }, async () => {
      const status = await readPublicStatus(await getDb(), slug);
      if (!status) return undefined;
      return utf8.encode(RENDER[rendition](status));
    });
    // Unpublished or deleted between the two reads: as unknown.
    if (body === undefined) return withRateLimitHeaders(notFound(rendition), limits);
    return new Response(streamOf(body), { status: 200, headers });
  } catch (error) {
    return withRateLimitHeaders(errorResponse(error, crypto.randomUUID().slice(0, 8)), limits);
  }
}
