import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { type Permission, requirePermission } from '@/lib/auth/permissions';
import { type Principal, resolvePrincipal } from '@/lib/auth/principal';
import { config } from '@/lib/config';
import { type Db, getDb } from '@/lib/db/client';
import { countHits, type LimitState, refuseOverLimit } from '@/lib/ratelimit/counter';
import { visibleSiteId } from '@/lib/sites/access';
import { ApiError, badRequest, errorResponse, forbidden, invalidInput } from './errors';
import { attachmentResponse } from './file';
import { enterCredential, enterTenant } from './in-flight';
import { limitsOfAnswer, type OrganizationLimit, requestHits, withRateLimitHeaders } from './rate-limit';
import { callerOf, heedEarlierRefusal, rememberRefusal } from './refusals';

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type HandlerContext<P, Q, B> = {
  db: Db;
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  req: Request;
};

/** A file route's declaration: the file's media type and what it holds, for the API reference. */
export type FileSpec = { contentType: string; description: string };

/**
 * What the handler of a route with `file` resolves to: the bytes (or a stream of them) and the name
 * the download is saved under. The pipeline answers it as an attachment (`attachmentResponse`).
 */
export type FileResult = { filename: string; content: Uint8Array | ReadableStream<Uint8Array> };

type RouteOptions<PS, QS, BS, FS extends FileSpec | undefined = FileSpec | undefined> = {
  /**
   * 'session': dashboard sessions only; an API key gets 403 (spec rule 7). Default: key or session.
   * 'none': a public route whose path carries its own credential (a signed or hashed token in a link
   * mailed to someone without an account); no credential is read and the handler has no principal.
   */
  auth?: 'any' | 'session' | 'none';
  permission?: Permission;
  /**
   * The path names a site (`params.id`): a site outside the caller's allowlist or key scope is a 404
   * before any permission check, so a 403 never confirms that a hidden site exists.
   */
  site?: boolean;
  params?: PS;
  query?: QS;
  body?: BS;
  /** Status for a plain (non-Response) result; 200 unless given. */
  status?: number;
  /** The success body's schema: documents the route (OpenAPI) and is enforced under test. */
  response?: Schema;
  /**
   * A route answering a file instead of JSON: its handler resolves to a `FileResult`, which the
   * pipeline sends with this media type as an attachment under the result's file name.
   */
  file?: FS;
  /** One line for the API reference (the operation's `summary`). */
  summary?: string;
  /**
   * The operation's `description` in the API reference: what it answers and does beyond the summary
   * (tests/unit/openapi-descriptions.test.ts requires one on every operation).
   */
  description?: string;
  /**
   * Route-specific reasons for error statuses, added to the API reference next to the ones every
   * route shares (401, 403, 404 for a path naming a site, 422 for a body or query).
   */
  errors?: Partial<Record<400 | 403 | 404 | 409 | 422 | 429 | 502, string>>;
  /**
   * Per-organization rate limits every call of the route counts against, besides the caller's
   * address and key or session (lib/api/rate-limit.ts): `test-send` on the test notification.
   */
  rateLimits?: readonly OrganizationLimit[];
};

/** What a route declares, kept on its handler for the OpenAPI document. */
export type RouteMeta = RouteOptions<Schema | undefined, Schema | undefined, Schema | undefined>;
export type ApiHandler = ((req: Request, context?: NextRouteContext) => Promise<Response>) & {
  meta: RouteMeta;
};

/** A result with a status decided at run time (e.g. crawl trigger: 202 started, 200 already running). */
export class Reply<T> {
  constructor(
    readonly data: T,
    readonly status: number,
  ) {}
}
export const reply = <T>(data: T, status: number) => new Reply(data, status);

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one request pipeline of every /v1 route:
 * an earlier refusal heeded (./refusals.ts) -> requests in progress (credential) -> credential -> principal -> requests in progress (organization)
 * -> rate limits -> session-only gate -> path -> site visibility -> permission
 * -> query, body -> handler -> JSON (or, for a `file` route, the attachment).
 * Every failure leaves through `errorResponse`, so every error body is `{error}`, and every answer
 * carries the RateLimit fields of the limits the request was counted against.
 */
export function apiRoute<
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
  FS extends FileSpec | undefined = undefined,
>(
  options: RouteOptions<PS, QS, BS, FS>,
  handler: (
    ctx: HandlerContext<Out<PS>, Out<QS>, Out<BS>>,
  ) => Promise<FS extends FileSpec ? FileResult : unknown>,
) {
  const handle = async (req: Request, context?: NextRouteContext): Promise<Response> => {
    const requestId = randomUUID().slice(0, 8);
    let limits: LimitState[] = [];
    // The requests in progress per credential and per organization (lib/api/in-flight.ts): the
    // credential's gate comes first, so a burst is refused before any database work.
    let leaveCredential = () => {};
    let leaveTenant = () => {};
    // Decided from the headers alone: a client refused a moment ago and asking again before the
    // time it was given is held and refused from memory, before any lookup or count (./refusals.ts).
    const caller = callerOf(req.headers, options.auth !== 'none');
    try {
      await heedEarlierRefusal(caller);
      if (options.auth !== 'none') leaveCredential = await enterCredential(caller.credential);
      const db = await getDb();
      // Credential, gates, path and visibility first (the gates need no database), their refusal
      // held back: every request counts against its address and its key or session, refused or not,
      // in one statement, and past a limit is 429 before anything else is said about it. A route's
      // per-organization limits count only calls the caller may make, so a refused member cannot
      // spend the organization's test sends.
      let principal: Principal | undefined;
      let params: unknown;
      let refusal: unknown;
      try {
        // A public route reads no credential: it counts against the client address alone.
        if (options.auth !== 'none') {
          const caller = await resolvePrincipal(db, req.headers);
          principal = caller;
          if (options.auth === 'session' && caller.via !== 'session') {
            throw forbidden('this endpoint needs a dashboard session; API keys cannot use it');
          }
        }
        params = parse(options.params, (await context?.params) ?? {}, 'path');
        if (principal && options.site) visibleSiteId(principal, (params as { id: string }).id);
        if (principal && options.permission) requirePermission(principal, options.permission);
      } catch (error) {
        refusal = error;
      }
      if (principal) leaveTenant = await enterTenant(principal.tenantId);
      const admitted = principal !== undefined && refusal === undefined;
      limits = await countHits(db, requestHits(req.headers, principal, admitted ? options.rateLimits : []));
      refuseOverLimit(limits);
      if (refusal !== undefined) throw refusal;
      const query = parse(options.query, Object.fromEntries(new URL(req.url).searchParams), 'query');
      const body = options.body ? parse(options.body, await readJson(req), 'body') : undefined;
      const result = await handler({
        db,
        principal: principal ?? NO_PRINCIPAL,
        params: params as Out<PS>,
        query: query as Out<QS>,
        body: body as Out<BS>,
        req,
      });
      return withRateLimitHeaders(answer(options, result), limits);
    } catch (error) {
      rememberRefusal(caller, error);
      return withRateLimitHeaders(errorResponse(error, requestId), limitsOfAnswer(limits, error));
    } finally {
      leaveTenant();
      leaveCredential();
    }
  };
  return Object.assign(handle, { meta: options as RouteMeta }) satisfies ApiHandler;
}

/** A handler's result as the HTTP answer: the attachment of a `file` route, else JSON. */
function answer(options: RouteMeta, result: unknown): Response {
  if (options.file) {
    const { filename, content } = result as FileResult;
    return attachmentResponse(content, { contentType: options.file.contentType, filename });
  }
  if (result instanceof Response) return result;
  const [data, status] =
    result instanceof Reply ? [result.data, result.status] : [result, options.status ?? 200];
  if (options.response && config().NODE_ENV === 'test') assertResponseShape(options.response, data);
  return Response.json(data, { status });
}

/**
 * What a public route's handler gets for a principal: touching it is a bug (the route would act for
 * nobody in particular), so it throws rather than answer for some tenant.
 */
const NO_PRINCIPAL = new Proxy({} as Principal, {
  get() {
    throw new Error('a public route (auth: none) has no principal');
  },
});

/**
 * Under test every response is held to its declared schema, so the OpenAPI document cannot drift
 * from what the API answers. Production skips the check: the data is already typed.
 */
function assertResponseShape(schema: Schema, data: unknown): void {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `response does not match its schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
    );
  }
}

function parse(schema: Schema | undefined, input: unknown, where: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error, where);
  return parsed.data;
}

/** Request bodies larger than this are refused (413) before they are read in full. */
export const MAX_BODY_BYTES = 256 * 1024;

const tooLarge = (cap: number) => new ApiError(413, `request body is larger than ${cap} bytes`);

/** An empty body reads as undefined (so optional bodies work); anything else must be JSON. */
async function readJson(req: Request): Promise<unknown> {
  const text = await readBodyText(req);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('malformed JSON body');
  }
}

/**
 * The body as text, never buffering more than `cap` bytes: a declared Content-Length over the
 * cap is refused before a byte is read, and a body that arrives without one (chunked) is counted as
 * it streams in and cut off at the cap, so a client cannot make the server hold megabytes.
 */
export async function readBodyText(req: Request, cap = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (declared > cap) {
    await req.body?.cancel().catch(() => {});
    throw tooLarge(cap);
  }
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
