import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import { displayPrefix, generateKeySecret, hashKeySecret } from '@/lib/auth/key-secret';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { apiKeys, sites } from '@/lib/db/schema';
import { ConflictError, NotFoundError } from '@/lib/errors';
import { assertOrganizationSites } from './site-scope';

/*
 * API keys of one organization. Only the SHA-256 of a secret is stored; the plaintext leaves the
 * server exactly twice: in the create and the re-roll responses.
 *
 * Decisions the spec leaves open:
 * - Listing shows live and expired keys (so an owner can see why an integration stopped), never
 *   revoked ones: revocation is irreversible, so a revoked key no longer exists for the API.
 * - Re-rolling or revoking a revoked key is 404 'key not found', like a key that never existed.
 * - Re-rolling an expired key is 409: it has no remaining lifetime to carry over; create a new key.
 * - Re-rolling rotates the secret in place: same id, name, site scope and expiry; the old hash is
 *   overwritten in the same statement, so the old secret stops working at once.
 */

const DAY_MS = 86_400_000;
const KEY_NOT_FOUND = 'key not found';

type KeyRow = typeof apiKeys.$inferSelect;

/** A new key, as validated by the caller (POST /v1/keys). */
export interface CreateKeyInput {
  name: string;
  /** Omitted or null: every site of the organization, including sites added later. */
  siteIds?: string[] | null;
  /** Omitted or null: the key never expires. */
  expiresInDays?: number | null;
}

/** A key as listed: everything but its secret. */
export type ApiKeyView = ReturnType<typeof toView>;

function toView(row: KeyRow, existingSiteIds?: Set<string>) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    // A deleted site drops out of the scope it was in (it can no longer be reached anyway).
    siteIds: row.site_ids === null ? null : row.site_ids.filter((id) => existingSiteIds?.has(id) ?? true),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function listKeys(db: Db, tenantId: string): Promise<ApiKeyView[]> {
  const [rows, siteRows] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.tenant_id, tenantId), isNull(apiKeys.revoked_at)))
      .orderBy(desc(apiKeys.created_at), desc(apiKeys.id)),
    db.select({ id: sites.id }).from(sites).where(eq(sites.tenant_id, tenantId)),
  ]);
  const existing = new Set(siteRows.map((s) => s.id));
  return rows.map((row) => toView(row, existing));
}

export async function createKey(
  db: Db,
  principal: Principal,
  input: CreateKeyInput,
  now = Date.now(),
): Promise<{ key: ApiKeyView; secret: string }> {
  // A key can never be scoped wider than its organization.
  const siteIds = input.siteIds ? await assertOrganizationSites(db, principal.tenantId, input.siteIds) : null;
  const secret = generateKeySecret();
  const [row] = await db
    .insert(apiKeys)
    .values({
      tenant_id: principal.tenantId,
      name: input.name,
      prefix: displayPrefix(secret),
      secret_hash: hashKeySecret(secret),
      site_ids: siteIds,
      expires_at: input.expiresInDays ? now + input.expiresInDays * DAY_MS : null,
      created_at: now,
      created_by: principal.userId ?? null,
    })
    .returning();
  if (!row) throw new Error('api key insert returned no row');
  return { key: toView(row), secret };
}

const isLive = (now: number) =>
  and(isNull(apiKeys.revoked_at), or(isNull(apiKeys.expires_at), gt(apiKeys.expires_at, now)));

export async function rerollKey(
  db: Db,
  { tenantId, keyId }: { tenantId: string; keyId: string },
  now = Date.now(),
): Promise<{ key: ApiKeyView; secret: string }> {
  const secret = generateKeySecret();
  // One conditional update: a concurrent revoke or a second re-roll cannot resurrect an old secret.
  const [row] = await db
    .update(apiKeys)
    .set({ prefix: displayPrefix(secret), secret_hash: hashKeySecret(secret), last_used_at: null })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenant_id, tenantId), isLive(now)))
    .returning();
  if (row) return { key: toView(row), secret };

  const [existing] = await db
    .select({ revokedAt: apiKeys.revoked_at })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenant_id, tenantId)));
  if (!existing || existing.revokedAt !== null) throw new NotFoundError(KEY_NOT_FOUND);
  throw new ConflictError('key has expired and has no lifetime left to carry over: create a new key instead');
}

export async function revokeKey(
  db: Db,
  { tenantId, keyId }: { tenantId: string; keyId: string },
  now = Date.now(),
): Promise<{ revoked: true }> {
  const [row] = await db
    .update(apiKeys)
    .set({ revoked_at: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.tenant_id, tenantId), isNull(apiKeys.revoked_at)))
    .returning({ id: apiKeys.id });
  if (!row) throw new NotFoundError(KEY_NOT_FOUND);
  return { revoked: true };
}
