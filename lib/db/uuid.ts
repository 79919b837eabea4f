/**
 * Any spelling Postgres accepts as a `uuid` (8-4-4-4-12 hex), deliberately looser than RFC 9562
 * (`z.uuid()` also checks version and variant bits): a path must reach every id the database can
 * hold, including rows imported from elsewhere. Checked before a query so a malformed id never
 * reaches Postgres, which would refuse it with an error instead of finding nothing.
 */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_SHAPE.test(value);
}
