/**
 * What the domain throws when it refuses a request. It says what went wrong, never how to answer:
 * an entry layer (the API pipeline's one table, a dashboard page) decides the status or the page.
 * The message is written for the caller and may be shown as is.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

export type DomainErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'invalid'
  | 'busy'
  | 'delivery';

/** No credential, or one that names nobody (unknown, revoked or expired key; expired session). */
export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  override readonly name = 'UnauthenticatedError';
}

/** The caller is known but may not do this. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  override readonly name = 'ForbiddenError';
}

/** The thing does not exist, or the caller may not know that it does. */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
  override readonly name = 'NotFoundError';
}

/** The request is well formed but clashes with the current state (a pending request, the last owner). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
  override readonly name = 'ConflictError';
}

/** One field of the input breaks a rule; the message names the field first ("field: problem"). */
export class InvalidError extends DomainError {
  readonly kind = 'invalid';
  override readonly name = 'InvalidError';
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

/**
 * The work is refused for now, not for good: the same kind of work is already under way for the
 * caller's organization (a monthly report being printed). `retryAfterMs` says when to try again.
 */
export class BusyError extends DomainError {
  readonly kind = 'busy';
  override readonly name = 'BusyError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * Something the service was asked to deliver somewhere else did not get there (a test notification:
 * the webhook refused it, could not be reached, timed out; the mail provider rejected it). The
 * message names the failure.
 */
export class DeliveryError extends DomainError {
  readonly kind = 'delivery';
  override readonly name = 'DeliveryError';
}

/** A site the caller cannot see and one that does not exist answer the same. */
export const SITE_NOT_FOUND = 'site not found';
export const siteNotFound = () => new NotFoundError(SITE_NOT_FOUND);
