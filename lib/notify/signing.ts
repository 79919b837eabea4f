import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { seal, unseal } from '@/lib/crypto/secrets';
import type { Db } from '@/lib/db/client';
import { notificationSigningSecrets } from '@/lib/db/schema';

/**
 * The organization's webhook signing secret: `whsec_` followed by 32 random bytes in base64, as the
 * Standard Webhooks specification writes it. Created on first use, sealed at rest, shown to owners
 * and admins (`signingSecret` in GET /v1/notifications), never logged. Rotating keeps the previous
 * secret signing alongside the new one for `PREVIOUS_SECRET_GRACE_MS`, so receivers can switch over
 * without dropping a message.
 */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60_000;
const PREFIX = 'whsec_';

export interface SigningSecretView {
  signingSecret: string;
  /** Until when the previous secret still signs (epoch ms); null when none does. */
  previousSigningSecretExpiresAt: number | null;
}

/** The secrets that sign a message sent at `now`: the current one, then the previous while it lasts. */
export interface SigningSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: number | null;
}

const newSecret = () => `${PREFIX}${randomBytes(32).toString('base64')}`;
const context = (tenantId: string) => `notification-signing-secret:${tenantId}`;

async function readRow(db: Db, tenantId: string) {
  const [row] = await db
    .select()
    .from(notificationSigningSecrets)
    .where(eq(notificationSigningSecrets.tenant_id, tenantId))
    .limit(1);
  return row;
}

/**
 * The organization's secrets, creating the first one if there is none. A secret that no longer
 * opens (the server's key changed) is replaced, with a warning that names the organization only.
 */
export async function signingSecrets(db: Db, tenantId: string, now = Date.now()): Promise<SigningSecrets> {
  let row = await readRow(db, tenantId);
  if (!row) {
    await db
      .insert(notificationSigningSecrets)
      .values({ tenant_id: tenantId, secret: seal(newSecret(), context(tenantId)), created_at: now })
      .onConflictDoNothing();
    row = await readRow(db, tenantId);
  }
  const current = row ? unseal(row.secret, context(tenantId)) : null;
  if (!row || current === null) {
    console.warn(
      `notifications: the webhook signing secret of organization ${tenantId} could not be opened (the encryption key changed); a new one was made`,
    );
    const fresh = await rotateSigningSecret(db, tenantId, now, { keepPrevious: false });
    return { current: fresh.signingSecret, previous: null, previousExpiresAt: null };
  }
  const live =
    row.previous_secret !== null && row.previous_expires_at !== null && row.previous_expires_at > now;
  const previous = live ? unseal(row.previous_secret as string, context(tenantId)) : null;
  return { current, previous, previousExpiresAt: previous ? row.previous_expires_at : null };
}

export async function signingSecretView(
  db: Db,
  tenantId: string,
  now = Date.now(),
): Promise<SigningSecretView> {
  const secrets = await signingSecrets(db, tenantId, now);
  return { signingSecret: secrets.current, previousSigningSecretExpiresAt: secrets.previousExpiresAt };
}

/** The secrets that sign at `now`, current first. */
export function activeSecrets(secrets: SigningSecrets, now: number): string[] {
  return secrets.previous && (secrets.previousExpiresAt ?? 0) > now
    ? [secrets.current, secrets.previous]
    : [secrets.current];
}

/**
 * POST /v1/notifications/signing-secret: a new secret signs from now on; the one it replaces keeps
 * signing alongside it for 24 hours.
 */
export async function rotateSigningSecret(
  db: Db,
  tenantId: string,
  now = Date.now(),
  options: { keepPrevious?: boolean } = {},
): Promise<SigningSecretView> {
  const row = await readRow(db, tenantId);
  const old = row ? unseal(row.secret, context(tenantId)) : null;
  const keep = (options.keepPrevious ?? true) && old !== null;
  const values = {
    secret: seal(newSecret(), context(tenantId)),
    previous_secret: keep ? row!.secret : null,
    previous_expires_at: keep ? now + PREVIOUS_SECRET_GRACE_MS : null,
    created_at: now,
  };
  await db
    .insert(notificationSigningSecrets)
    .values({ tenant_id: tenantId, ...values })
    .onConflictDoUpdate({ target: notificationSigningSecrets.tenant_id, set: values });
  return signingSecretView(db, tenantId, now);
}
