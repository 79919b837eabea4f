import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { config } from '@/lib/config';
import { dispatcherFor } from './dispatcher';
import { NetError, type RedirectHop, timeoutDetail, toNetError } from './errors';
import { type ConnectionTrace, emptyTrace, tracedClient } from './trace';

export type { RedirectHop };

export const USER_AGENT_TOKEN = 'SitewatchBot';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Redirects followed before a request fails: 20, the limit browsers apply (Fetch standard, Chrome,
 * Firefox), so a chain a visitor's browser follows is never reported as an error. Loops are caught
 * separately, at their first repeated URL.
 */
export const DEFAULT_MAX_REDIRECTS = 20;

let userAgentValue: string | undefined;
export function userAgent(): string {
  userAgentValue ??= `${USER_AGENT_TOKEN}/1.0 (+${config().appUrl}/bot)`;
  return userAgentValue;
}

export interface HttpRequestOptions {
  url: string | URL;
  /** Default GET. */
  method?: string;
  /** Merged over the defaults (user-agent, accept, accept-encoding); names are case-insensitive. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Serialised as the body with `content-type: application/json`. */
  json?: unknown;
  /** One deadline for connect, headers and body (and every hop of `fetchFollowing`). */
  timeoutMs?: number;
  /** Body bytes kept (after decompression). 0 discards the body without buffering it. */
  maxBytes?: number;
  /** Past `maxBytes`: keep what was read and mark `truncated` (default), or fail with `body-too-large`. */
  onTooLarge?: 'truncate' | 'error';
  signal?: AbortSignal;
  /** Reach loopback and private ranges. Defaults to `config().ALLOW_PRIVATE_NETWORK`. */
  allowPrivate?: boolean;
  /**
   * Measure instead of reuse: each hop opens a connection of its own (closed after it), and this
   * is called when the hop starts with the trace its socket events fill in (`ConnectionTrace`).
   * With `maxBytes: 0` the connection is dropped once the headers are in, so no body is downloaded.
   */
  traceConnection?: (trace: ConnectionTrace) => void;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut at `maxBytes`. */
  truncated: boolean;
  /** The URL that produced this response (the last hop after redirects). */
  url: string;
  timings: { startedAt: number; headersMs: number; totalMs: number };
}

export interface FollowedResponse extends HttpResponse {
  /** Every response in order, the final one included: a single entry means no redirect. */
  chain: RedirectHop[];
}

export interface FollowOptions extends HttpRequestOptions {
  /** Redirects followed before failing with `too-many-redirects`. Default DEFAULT_MAX_REDIRECTS. */
  maxRedirects?: number;
}

/** First value of a header, whichever way undici delivered it. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** One request, one response: redirects come back as they are (3xx with a location header). */
export async function httpRequest(options: HttpRequestOptions): Promise<HttpResponse> {
  const url = parseHttpUrl(options.url);
  const deadline = new Deadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
  try {
    return await exchange(url, prepare(options), deadline, alwaysRead);
  } finally {
    deadline.dispose();
  }
}

/**
 * Follows redirects by hand, so the address check applies to every hop, the chain is recorded,
 * and a loop is reported as such rather than as "too many redirects". A NetError thrown from here
 * names the URL that failed in `url` and, after the first hop, the responses so far in `chain`.
 */
export async function fetchFollowing(options: FollowOptions): Promise<FollowedResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = parseHttpUrl(options.url);
  let request = prepare(options);
  const chain: RedirectHop[] = [];
  const seen = new Set<string>();
  const deadline = new Deadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
  try {
    for (;;) {
      seen.add(url.href);
      let response: HttpResponse;
      try {
        response = await exchange(url, request, deadline, readUnlessRedirect);
      } catch (err) {
        throw withContext(err, url.href, chain);
      }
      chain.push({ status: response.status, url: response.url });
      const location = header(response.headers, 'location');
      if (!isRedirectStatus(response.status) || location === undefined) {
        return { ...response, chain };
      }
      let next: URL;
      try {
        next = resolveRedirect(location, url);
      } catch (err) {
        throw withContext(err, url.href, chain);
      }
      if (seen.has(next.href)) {
        const path = [...chain.map((hop) => hop.url), next.href].join(' -> ');
        throw withContext(new NetError('redirect-loop', `redirect loop: ${path}`), next.href, chain);
      }
      if (chain.length > maxRedirects) {
        throw withContext(
          new NetError('too-many-redirects', `more than ${maxRedirects} redirects`),
          next.href,
          chain,
        );
      }
      request = redirectedRequest(request, response.status, url, next);
      url = next;
    }
  } finally {
    deadline.dispose();
  }
}

// --- internals -----------------------------------------------------------------------------

interface PreparedRequest {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  maxBytes: number;
  onTooLarge: 'truncate' | 'error';
  allowPrivate: boolean;
  traceConnection: ((trace: ConnectionTrace) => void) | undefined;
}

function prepare(options: HttpRequestOptions): PreparedRequest {
  const headers: Record<string, string> = {
    'user-agent': userAgent(),
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br',
  };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  if (options.headers) {
    for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
  }
  return {
    method: (options.method ?? 'GET').toUpperCase(),
    headers,
    body,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    onTooLarge: options.onTooLarge ?? 'truncate',
    allowPrivate: options.allowPrivate ?? config().ALLOW_PRIVATE_NETWORK,
    traceConnection: options.traceConnection,
  };
}

function parseHttpUrl(input: string | URL): URL {
  let url: URL;
  try {
    // A copy: the caller's URL object is never mutated.
    url = new URL(input);
  } catch {
    throw new NetError('invalid-url', `invalid URL: ${String(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError('invalid-url', `not an http(s) URL: ${url.href}`);
  }
  // Fragments are never sent; keeping them out makes `url` and the chain match what was requested.
  url.hash = '';
  return url;
}

function resolveRedirect(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetError('invalid-url', `redirected to an invalid URL: ${location}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new NetError('invalid-url', `redirected to a non-HTTP URL: ${next.href}`);
  }
  next.hash = '';
  return next;
}

/** Browser rules: 303 (and 301/302 after a POST) turn into a body-less GET; 307/308 replay as is. */
function redirectedRequest(request: PreparedRequest, status: number, from: URL, to: URL): PreparedRequest {
  const headers = { ...request.headers };
  let { method, body } = request;
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    delete headers['content-type'];
    delete headers['content-length'];
  }
  if (from.origin !== to.origin) {
    // Credentials meant for one origin must not leak to wherever it redirects.
    delete headers.authorization;
    delete headers.cookie;
  }
  return { ...request, method, headers, body };
}

function withContext(err: unknown, url: string, chain: RedirectHop[]): unknown {
  if (err instanceof NetError) {
    err.url = url;
    if (chain.length > 0) err.chain = chain.slice();
  }
  return err;
}

/** The redirect chain a NetError from `fetchFollowing` walked before failing, if any. */
export function chainOf(err: unknown): RedirectHop[] | undefined {
  return err instanceof NetError ? err.chain : undefined;
}

/**
 * The requests in flight under each caller's AbortSignal. A crawl step runs hundreds of requests
 * under one signal; an EventTarget scans its listeners on every add, so one listener per signal
 * fans out to a set instead of each request adding its own.
 */
const cancellations = {
  watched: new WeakMap<AbortSignal, Set<Deadline>>(),

  watch(signal: AbortSignal, deadline: Deadline): void {
    let deadlines = this.watched.get(signal);
    if (!deadlines) {
      const watching = new Set<Deadline>();
      signal.addEventListener(
        'abort',
        () => {
          for (const each of watching) each.abort();
          watching.clear();
        },
        { once: true },
      );
      this.watched.set(signal, watching);
      deadlines = watching;
    }
    deadlines.add(deadline);
  },

  unwatch(signal: AbortSignal, deadline: Deadline): void {
    this.watched.get(signal)?.delete(deadline);
  },
};

/**
 * One timer and one abort source for a whole logical request, however many hops it takes. It is
 * the `signal` undici watches: undici accepts an EventEmitter that emits 'abort', which costs a
 * fraction of an AbortController, and a crawl makes one per URL.
 */
class Deadline extends EventEmitter {
  aborted = false;
  timedOut = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly timeoutMs: number,
    private readonly external: AbortSignal | undefined,
  ) {
    super();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abort();
    }, timeoutMs);
    if (external?.aborted) this.abort();
    else if (external) cancellations.watch(external, this);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }

  translate(err: unknown, host: string): NetError {
    if (this.timedOut) return new NetError('timeout', timeoutDetail(this.timeoutMs), { cause: err });
    if (this.external?.aborted) return new NetError('aborted', 'request was cancelled', { cause: err });
    return toNetError(err, host, this.timeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.external) cancellations.unwatch(this.external, this);
  }
}

type ReadPolicy = (status: number, headers: IncomingHttpHeaders) => boolean;
const alwaysRead: ReadPolicy = () => true;
const readUnlessRedirect: ReadPolicy = (status, headers) => !(isRedirectStatus(status) && headers.location);

async function exchange(
  url: URL,
  request: PreparedRequest,
  deadline: Deadline,
  read: ReadPolicy,
): Promise<HttpResponse> {
  if (deadline.aborted) throw deadline.translate(undefined, url.hostname);
  if (!request.traceConnection)
    return await exchangeOn(dispatcherFor(request.allowPrivate), url, request, deadline, read);
  const trace = emptyTrace();
  request.traceConnection(trace);
  const traced = tracedClient(url, request.allowPrivate, trace);
  try {
    return await exchangeOn(traced.client, url, request, deadline, read);
  } finally {
    traced.close();
  }
}

async function exchangeOn(
  dispatcher: Dispatcher,
  url: URL,
  request: PreparedRequest,
  deadline: Deadline,
  read: ReadPolicy,
): Promise<HttpResponse> {
  const startedAt = Date.now();
  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body,
      signal: deadline,
      // Backstops only: the deadline's own timer is what normally fires.
      headersTimeout: deadline.timeoutMs + 1000,
      bodyTimeout: deadline.timeoutMs + 1000,
    });
  } catch (err) {
    throw deadline.translate(err, url.hostname);
  }
  const headersMs = Date.now() - startedAt;
  let body: Buffer = EMPTY;
  let truncated = false;
  try {
    if (request.traceConnection && (request.maxBytes === 0 || !read(response.statusCode, response.headers))) {
      // The connection is this request's alone and closes next: nothing to drain for reuse. undici
      // reports a body destroyed unread as an AbortError, expected here, so it is swallowed.
      response.body.on('error', () => {}).destroy();
    } else if (
      request.method === 'HEAD' ||
      request.maxBytes === 0 ||
      !read(response.statusCode, response.headers)
    ) {
      await response.body.dump();
    } else {
      ({ body, truncated } = await readBody(response.body, response.headers, request));
    }
  } catch (err) {
    response.body.destroy();
    throw deadline.translate(err, url.hostname);
  }
  return {
    status: response.statusCode,
    headers: response.headers,
    body,
    truncated,
    url: url.href,
    timings: { startedAt, headersMs, totalMs: Date.now() - startedAt },
  };
}

const EMPTY: Buffer = Buffer.alloc(0);

function decoderFor(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      // Lenient flushing: many servers end gzip streams abruptly; keep what was decoded.
      return zlib.createGunzip({
        flush: zlib.constants.Z_SYNC_FLUSH,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
    case 'deflate':
      return zlib.createInflate({
        flush: zlib.constants.Z_SYNC_FLUSH,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/** Reads at most `maxBytes` decoded bytes, then stops: a huge or endless body costs nothing more. */
async function readBody(
  raw: Readable,
  headers: IncomingHttpHeaders,
  request: PreparedRequest,
): Promise<{ body: Buffer; truncated: boolean }> {
  const { maxBytes, onTooLarge } = request;
  const tooLarge = () => new NetError('body-too-large', `response body larger than ${formatBytes(maxBytes)}`);
  const declared = Number(header(headers, 'content-length'));
  const encoding = header(headers, 'content-encoding');
  const decoder = decoderFor(encoding);
  if (onTooLarge === 'error' && !decoder && declared > maxBytes) throw tooLarge();

  const source: Readable = decoder ? pipeline(raw, decoder, () => {}) : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      if (onTooLarge === 'error') throw tooLarge();
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) {
    // Leaving the loop early destroys `source`; the raw socket stream must go too.
    raw.destroy();
  }
  return { body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size), truncated };
}
