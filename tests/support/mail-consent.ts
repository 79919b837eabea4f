import { and, desc, eq, like } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { requestConfirmations } from '@/lib/notify/consent';
import { v1 } from './api-client';

/*
 * Outside addresses receive notifications only once they confirmed (lib/notify/consent.ts). Tests
 * that mail outside addresses confirm them the way the recipient does: the link of the confirmation
 * mail (read from the stored copy, as they would read the mail), its button's POST.
 */

/** The token of the last confirmation mail to `address`, from the link in its text. */
export async function confirmationToken(db: Db, address: string): Promise<string> {
  const [mail] = await db
    .select({ text: mailMessages.text })
    .from(mailMessages)
    .where(and(eq(mailMessages.to, address), like(mailMessages.subject, 'Please confirm:%')))
    .orderBy(desc(mailMessages.created_at))
    .limit(1);
  const token = mail?.text.match(/\/confirm\/([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no confirmation mail to ${address}`);
  return token;
}

/** Presses Confirm on the confirmation page of the last confirmation mail to each address. */
export async function confirmByMail(db: Db, ...addresses: string[]): Promise<void> {
  for (const address of addresses) {
    const token = await confirmationToken(db, address);
    const res = await v1().POST('/v1/confirm/{token}', { params: { path: { token } } });
    if (res.status !== 200)
      throw new Error(`confirming ${address}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/**
 * Addresses named somewhere that sends no confirmation by itself (a payload written by a test): asked
 * as saving them in a list would ask, then confirmed.
 */
export async function confirmOutsideAddresses(
  db: Db,
  tenantId: string,
  ...addresses: string[]
): Promise<void> {
  await requestConfirmations(db, tenantId, addresses);
  await confirmByMail(db, ...addresses.map((a) => a.toLowerCase()));
}
