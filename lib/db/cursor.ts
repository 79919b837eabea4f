import { InvalidError } from '@/lib/errors';

/**
 * Opaque keyset cursors of every paginated list (runs, pages, notification deliveries): the sort key
 * of the last row a page showed, as base64url JSON. Opaque to clients (they only pass it back), so
 * the key's shape can change without breaking them.
 */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key a cursor carries, checked by `isKey`; anything else is a 422 naming `cursor`. */
export function decodeCursor<K extends unknown[]>(cursor: string, isKey: (key: unknown[]) => key is K): K {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || !isKey(key))
    throw new InvalidError('cursor', 'is not a cursor this endpoint returned');
  return key;
}
