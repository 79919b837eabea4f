import { z } from 'zod';
import { BusyError, DomainError, type DomainErrorKind, SITE_NOT_FOUND } from '@/lib/errors';

/**
 * An error the HTTP layer raises itself (a body too large, malformed JSON, a path id of the wrong
 * shape), with its status. Services throw domain errors (`@/lib/errors`) instead, mapped below.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 413 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);

/** A malformed site id in the path, or a site outside the caller's scope: the domain's answer. */
export const siteNotFound = () => notFound(SITE_NOT_FOUND);

/** "rootUrl: must be an http(s) URL" — the first issue, naming the field. */
export function describeZodError(error: z.ZodError, where?: string): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const path = issue.path.map(String).join('.');
  const field = path || where || 'body';
  return `${field}: ${issue.message}`;
}

/** The one place a domain refusal becomes an HTTP status. */
const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, 401 | 403 | 404 | 409 | 422 | 429 | 502> = {
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  invalid: 422,
  busy: 429,
  delivery: 502,
};

/** Every failure of a /v1 request leaves as `{error}`: known ones with their status, the rest as 500. */
export function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) return Response.json({ error: error.message }, { status: error.status });
  if (error instanceof DomainError) {
    // A refusal for now says when to come back, in whole seconds as Retry-After is written.
    const headers: Record<string, string> =
      error instanceof BusyError ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : {};
    return Response.json({ error: error.message }, { status: DOMAIN_ERROR_STATUS[error.kind], headers });
  }
  if (error instanceof z.ZodError) return Response.json({ error: describeZodError(error) }, { status: 422 });
  // Log the failure with its request id; the response carries the id, never the internals.
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(`request ${requestId} failed: ${detail}`);
  return Response.json({ error: `internal error (request ${requestId})` }, { status: 500 });
}
