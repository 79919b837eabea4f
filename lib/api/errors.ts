import { z } from 'zod';
import { BusyError, DomainError, type DomainErrorKind, InvalidError, SITE_NOT_FOUND } from '@/lib/errors';

/** One problem with a request's input: the field's path (`alertWebhooks.0.url`) and what is wrong. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * An error the HTTP layer raises itself (a body too large, malformed JSON, a path id of the wrong
 * shape, input that fails its schema), with its status. Services throw domain errors
 * (`@/lib/errors`) instead, mapped below. A 422 carries every problem of the input, not only the
 * first, so a client can fix them all in one round.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 413 | 422,
    message: string,
    readonly issues?: readonly FieldIssue[],
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

/** Said of a key the body's schema does not have (strict objects refuse them). */
export const UNKNOWN_FIELD = 'is not a field of this request (unknown field)';

/**
 * Every problem of a failed parse, each naming its field (`where`, such as `query`, when the problem
 * is with the whole input); each unknown key is a problem of its own, named.
 */
export function fieldIssues(error: z.ZodError, where?: string): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: UNKNOWN_FIELD }));
    }
    return [{ field: path.join('.') || where || 'body', message: issue.message }];
  });
}

/** The 422 for input that fails its schema: `error` says every problem ("rootUrl: ...; maxPages: ..."). */
export function invalidInput(error: z.ZodError, where?: string): ApiError {
  const issues = fieldIssues(error, where);
  const message = issues.map((i) => `${i.field}: ${i.message}`).join('; ') || 'invalid request';
  return new ApiError(422, message, issues);
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
  if (error instanceof z.ZodError) return errorResponse(invalidInput(error), requestId);
  if (error instanceof ApiError) {
    const body = error.issues ? { error: error.message, issues: error.issues } : { error: error.message };
    return Response.json(body, { status: error.status });
  }
  if (error instanceof InvalidError) {
    // A service's refusal of one field: the same shape as a schema's 422.
    const issues: FieldIssue[] = [{ field: error.field, message: error.problem }];
    return Response.json({ error: error.message, issues }, { status: DOMAIN_ERROR_STATUS.invalid });
  }
  if (error instanceof DomainError) {
    // A refusal for now says when to come back, in whole seconds as Retry-After is written.
    const headers: Record<string, string> =
      error instanceof BusyError ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : {};
    return Response.json({ error: error.message }, { status: DOMAIN_ERROR_STATUS[error.kind], headers });
  }
  // Log the failure with its request id; the response carries the id, never the internals.
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(`request ${requestId} failed: ${detail}`);
  return Response.json({ error: `internal error (request ${requestId})` }, { status: 500 });
}
