/**
 * Whether `error` is a unique violation of `index` (SQLSTATE 23505). node-postgres and PGlite both
 * report the code; drizzle wraps the driver error in `cause`, and PGlite names the index only in
 * its message.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (constraint === index || String(message).includes(index))) return true;
  }
  return false;
}
