import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  type StatusPage,
  type StatusPageSubscriber,
  statusPageSubscribers,
  statusPages,
} from '@/lib/db/schema';
import {
  alreadySubscribedMessage,
  type MailMessage,
  subscriptionConfirmationMessage,
} from '@/lib/email/templates';
import { MailDeliveryError, sendMail } from '@/lib/email/transport';
import { NetError } from '@/lib/net';
import {
  CONFIRMATION_TTL_MS,
  type ConfirmationState,
  confirmationState,
  hashToken,
  isConfirmToken,
  type SenderLimits,
  takeConfirmationPlace,
} from '@/lib/notify/consent';
import {
  maskAddress,
  readSubscriberUnsubscribeToken,
  subscriberUnsubscribeToken,
  subscriberUnsubscribeUrl,
} from '@/lib/notify/subscribers';
import { normalizeAddress } from '@/lib/orgs/addresses';
import { mailOrganizationName } from '@/lib/orgs/name';
import { publicUrl } from './resource';

/*
 * Visitors subscribing to a published status page by email (issue 26 item 4), the visitor's side;
 * what subscribers receive, and their unsubscribe link, is lib/notify/subscribers.ts.
 *
 * - The page's form posts an address. Nothing is active until the address confirms: a row is kept
 *   with the SHA-256 of a 32-byte token, and the token is mailed in a link to a page that confirms
 *   with a button (a POST: link scanners prefetch GETs). The link is valid 72 hours, as the
 *   organization's own confirmations (lib/notify/consent.ts), whose limits this shares: per address
 *   and page, per page, and per address across every page and organization (SUBSCRIBE_LIMITS).
 * - The answer to the form is the same whatever happened (a new subscription, one already
 *   confirmed, a limit reached, a mail provider down): "check your inbox". Whether an address is
 *   subscribed is never said to whoever types it, nor shown by the time the answer takes: an
 *   address already subscribed is mailed a note that nothing changed, within the same limits.
 * - The organization sees how many confirmed (`subscriberCount`), never who: it cannot add an
 *   address either, since it collected no consent.
 */

/** Confirmation mails of one page's form, counted over the last 24 hours. */
export const SUBSCRIBE_LIMITS: SenderLimits = {
  addressCooldownMs: 10 * 60 * 1000,
  perAddressAndSender: 3,
  /** A busy page during an outage gets many honest subscribers; a script gets this many mails out a day. */
  perSender: 200,
  perAddress: 5,
};

/**
 * A visitor asked a published page for mail at `email` (already validated as an address). Resolves
 * the same whatever happened (the same-answer rule above): a new or pending subscription gets a
 * confirmation mail within the limits, a confirmed one nothing.
 */
export async function subscribe(db: Db, page: StatusPage, email: string, now = Date.now()): Promise<void> {
  const address = normalizeAddress(email);
  await db
    .insert(statusPageSubscribers)
    .values({ tenant_id: page.tenant_id, status_page_id: page.id, address, created_at: now })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(statusPageSubscribers)
    .where(
      and(eq(statusPageSubscribers.status_page_id, page.id), eq(statusPageSubscribers.address, address)),
    );
  if (!row) return;
  // Confirmed already: a note that nothing changed, within the same limits, so the answer and the
  // work behind it are the same as for a new address.
  if (row.confirmed_at !== null) await sendAlreadySubscribed(db, page, row, now);
  else await sendSubscriptionConfirmation(db, page, row, now);
}

/** Sends `mail` to the subscriber; a provider that refused or did not answer is logged, masked. */
async function mailSubscriber(db: Db, page: StatusPage, row: StatusPageSubscriber, mail: MailMessage) {
  try {
    await sendMail(db, mail, { logRecipient: maskAddress(row.address) });
    return true;
  } catch (error) {
    if (!(error instanceof MailDeliveryError) && !(error instanceof NetError)) throw error;
    console.warn(`status page ${page.id}: mail to ${maskAddress(row.address)} not sent: ${error.message}`);
    return false;
  }
}

async function sendAlreadySubscribed(db: Db, page: StatusPage, row: StatusPageSubscriber, now: number) {
  const sender = { tenantId: page.tenant_id, statusPageId: page.id };
  const wait = await takeConfirmationPlace(db, sender, row.address, SUBSCRIBE_LIMITS, now, async () => {});
  if (wait > 0) return;
  await mailSubscriber(
    db,
    page,
    row,
    alreadySubscribedMessage({
      to: row.address,
      pageTitle: mailOrganizationName(page.title),
      pageUrl: publicUrl(page.slug),
      unsubscribeUrl: subscriberUnsubscribeUrl(page.slug, subscriberUnsubscribeToken(row.id, page.id)),
    }),
  );
}

async function sendSubscriptionConfirmation(
  db: Db,
  page: StatusPage,
  row: StatusPageSubscriber,
  now: number,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + CONFIRMATION_TTL_MS;
  const wait = await takeConfirmationPlace(
    db,
    { tenantId: page.tenant_id, statusPageId: page.id },
    row.address,
    SUBSCRIBE_LIMITS,
    now,
    (tx) =>
      tx
        .update(statusPageSubscribers)
        .set({ confirm_token_hash: hashToken(token), confirm_sent_at: now, confirm_expires_at: expiresAt })
        .where(eq(statusPageSubscribers.id, row.id)),
  );
  if (wait > 0) return;
  const sent = await mailSubscriber(
    db,
    page,
    row,
    subscriptionConfirmationMessage({
      to: row.address,
      pageTitle: mailOrganizationName(page.title),
      confirmUrl: publicUrl(page.slug, `/confirm/${token}`),
      expiresAt,
    }),
  );
  // The link that did not go out is withdrawn; the visitor may submit the form again.
  if (!sent) {
    await db
      .update(statusPageSubscribers)
      .set({ confirm_token_hash: null, confirm_expires_at: null })
      .where(eq(statusPageSubscribers.id, row.id));
  }
}

export interface SubscriptionView {
  pageTitle: string;
  slug: string;
  email: string;
  state: ConfirmationState;
}

async function byConfirmToken(db: Db, token: string) {
  if (!isConfirmToken(token)) return undefined;
  const [row] = await db
    .select({ subscriber: statusPageSubscribers, page: statusPages })
    .from(statusPageSubscribers)
    .innerJoin(statusPages, eq(statusPages.id, statusPageSubscribers.status_page_id))
    .where(eq(statusPageSubscribers.confirm_token_hash, hashToken(token)))
    .limit(1);
  return row;
}

/**
 * The confirmation link's subscription, read only (the page before its button); with `confirm`,
 * the button's POST: a pending subscription becomes active (pressing twice answers the same). Null:
 * no such link (mistyped, replaced by a newer mail, or its page unpublished or deleted).
 */
export async function confirmationOf(
  db: Db,
  token: string,
  { confirm }: { confirm: boolean },
  now = Date.now(),
): Promise<SubscriptionView | null> {
  const found = await byConfirmToken(db, token);
  if (found?.page.published !== 1) return null;
  let state = confirmationState(found.subscriber, now);
  if (confirm && state === 'pending') {
    await db
      .update(statusPageSubscribers)
      .set({ confirmed_at: now, confirm_expires_at: null })
      .where(
        and(eq(statusPageSubscribers.id, found.subscriber.id), isNull(statusPageSubscribers.confirmed_at)),
      );
    state = 'confirmed';
  }
  return { pageTitle: found.page.title, slug: found.page.slug, email: found.subscriber.address, state };
}

export interface UnsubscribeView {
  /** null: the page was deleted since. */
  pageTitle: string | null;
  /** Whether the address still receives the page's mail. */
  subscribed: boolean;
}

/**
 * A subscriber's unsubscribe link, read only (the page before its button); with `unsubscribe`, the
 * button's POST or a mail client's RFC 8058 one-click POST: the subscription is deleted, so the
 * page's mail stops. Pressing twice answers the same. Null: the token is not valid.
 */
export async function unsubscribeOf(
  db: Db,
  token: string,
  { unsubscribe }: { unsubscribe: boolean },
): Promise<UnsubscribeView | null> {
  const read = readSubscriberUnsubscribeToken(token);
  if (!read) return null;
  const [page] = await db
    .select({ title: statusPages.title })
    .from(statusPages)
    .where(eq(statusPages.id, read.pageId));
  const where = and(
    eq(statusPageSubscribers.id, read.subscriberId),
    eq(statusPageSubscribers.status_page_id, read.pageId),
  );
  if (unsubscribe) {
    await db.delete(statusPageSubscribers).where(where);
    return { pageTitle: page?.title ?? null, subscribed: false };
  }
  const [row] = await db.select({ id: statusPageSubscribers.id }).from(statusPageSubscribers).where(where);
  return { pageTitle: page?.title ?? null, subscribed: row !== undefined };
}

/** Each page's confirmed subscribers: the number the owner sees (`subscriberCount`), never who. */
export async function subscriberCounts(
  db: Db,
  tenantId: string,
  pageIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(pageIds.map((id) => [id, 0]));
  if (pageIds.length === 0) return counts;
  const rows = await db
    .select({ page: statusPageSubscribers.status_page_id, n: count() })
    .from(statusPageSubscribers)
    .where(
      and(
        eq(statusPageSubscribers.tenant_id, tenantId),
        inArray(statusPageSubscribers.status_page_id, [...pageIds]),
        isNotNull(statusPageSubscribers.confirmed_at),
      ),
    )
    .groupBy(statusPageSubscribers.status_page_id);
  for (const r of rows) counts.set(r.page, Number(r.n));
  return counts;
}
