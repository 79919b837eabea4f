import { z } from 'zod';
import type { ApiError } from '@/lib/api/errors';
import { isUuid } from '@/lib/db/uuid';

/**
 * A record id taken from the URL path. A malformed id names no record, so it answers exactly like an
 * unknown one (`notFoundError`, e.g. `siteNotFound`) instead of a 422 that would reveal the id format
 * was the problem. The error is thrown from inside the schema; the pipeline maps it like any other.
 */
export function pathId(notFoundError: () => ApiError) {
  return z.string().transform((id) => {
    if (!isUuid(id)) throw notFoundError();
    return id.toLowerCase();
  });
}

/** A whole number with a field-naming message: "cadenceMinutes: must be a whole number". */
export const wholeNumber = () => z.int({ error: 'must be a whole number' });

/** A JSON boolean; "true" strings and 0/1 are refused so a typo cannot flip an app the wrong way. */
export const strictBoolean = () => z.boolean({ error: 'must be true or false' });

/**
 * Compile-time proof that a domain's result type and a response schema's output are the same type:
 * `Holds<Same<A, B>>` fails typecheck when they drift. Compared as the compiler compares types for
 * identity (not mere mutual assignability), so an `any` on either side does not pass for a match.
 */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Holds<T extends true> = T;
