import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { type LimitState, refuseOverLimit } from '@/lib/ratelimit/counter';
import { PAGE_CSP } from '@/lib/statuspages/html';
import { findPublishedPage } from '@/lib/statuspages/public';
import { confirmationOf, subscribe, unsubscribeOf } from '@/lib/statuspages/service';
import { slugProblem } from '@/lib/statuspages/slug';
import { renderSubscriptionPage, type SubscriptionPage } from '@/lib/statuspages/subscribe-html';
import { errorResponse } from './errors';
import { countStatusVisit, notFound } from './public-status';
import { withRateLimitHeaders } from './rate-limit';

/*
 * The HTTP side of subscribing to a status page (lib/statuspages/subscribers.ts), on the page's own
 * public surface: no credential, no cookie, no script, the page's policy (PAGE_CSP: forms post to
 * this origin only), every request counted against its client address like the page's own
 * (`status-page` policy). Each answer is a small HTML page; nothing is cached (`no-store`), and the
 * pages reached from a link in mail, whose URL holds a token, send no Referer.
 *
 * - POST /status/{slug}/subscribe (form-encoded `email`): the same "check your inbox" page whatever
 *   happened, so nobody learns whether an address is subscribed; a malformed address is 422 with
 *   the form again.
 * - GET /status/{slug}/confirm/{token}: what the link confirms, and a button; its POST confirms.
 * - GET /status/{slug}/unsubscribe/{token}: what the link stops, and a button; its POST (or a mail
 *   client's RFC 8058 one-click POST to the List-Unsubscribe URL, whose body is not needed)
 *   unsubscribes. The token, not the slug, names the subscription: a page renamed since the mail
 *   was sent still honours it.
 */

/** A form with one address is far below this; anything larger is not the page's form. */
const MAX_FORM_BYTES = 2048;

const emailField = z.email().max(254);

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

function html(status: number, page: SubscriptionPage, limits: LimitState[]): Response {
  return withRateLimitHeaders(
    new Response(renderSubscriptionPage(page), { status, headers: HEADERS }),
    limits,
  );
}

const base = (slug: string) => `/status/${encodeURIComponent(slug)}`;

/** Counts the visit, refuses what is over the limit or names no page, then answers. */
async function handle(
  req: Request,
  slug: string,
  answer: (limits: LimitState[]) => Promise<Response>,
): Promise<Response> {
  let limits: LimitState[] = [];
  try {
    limits = await countStatusVisit(req);
    refuseOverLimit(limits);
    if (slugProblem(slug) !== null) return withRateLimitHeaders(notFound('html'), limits);
    return await answer(limits);
  } catch (error) {
    return withRateLimitHeaders(errorResponse(error, crypto.randomUUID().slice(0, 8)), limits);
  }
}

/** The form's body, read up to MAX_FORM_BYTES; null when it is not a form this size. */
async function formOf(req: Request): Promise<URLSearchParams | 'too-large' | 'not-a-form'> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return 'not-a-form';
  if (Number(req.headers.get('content-length') ?? 0) > MAX_FORM_BYTES) return 'too-large';
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return 'too-large';
  return new URLSearchParams(text);
}

export const CHECK_INBOX =
  'If the address can receive mail, a message to confirm the subscription is on its way. Nothing is sent to it until the link in that message is confirmed; if it does not arrive, check the spam folder or submit the form again in a few minutes.';

export async function servePublicSubscribe(req: Request, slug: string): Promise<Response> {
  return handle(req, slug, async (limits) => {
    const db = await getDb();
    // An unknown or unpublished page is 404 before the form is read, as the page itself is.
    const page = await findPublishedPage(db, slug);
    if (!page) return withRateLimitHeaders(notFound('html'), limits);
    const form = await formOf(req);
    if (form === 'not-a-form' || form === 'too-large') {
      const problem =
        form === 'too-large' ? 'The form was too large.' : 'Send the form as the page does (form-encoded).';
      return html(
        form === 'too-large' ? 413 : 415,
        { heading: 'Not subscribed', pageTitle: null, base: base(slug), paragraphs: [problem] },
        limits,
      );
    }
    const email = (form.get('email') ?? '').trim();
    if (!emailField.safeParse(email).success) {
      return html(
        422,
        {
          heading: 'Not subscribed',
          pageTitle: null,
          base: base(slug),
          paragraphs: [],
          form: { problem: 'Enter an email address, like name@example.com.' },
        },
        limits,
      );
    }
    await subscribe(db, page, email);
    // One answer, whatever happened: a new subscription, one already confirmed, a limit, a mail error.
    return html(
      200,
      { heading: 'Check your inbox', pageTitle: null, base: base(slug), paragraphs: [CHECK_INBOX] },
      limits,
    );
  });
}

const BAD_CONFIRM_LINK =
  'This confirmation link is not valid: it may have been replaced by a newer confirmation mail, or the status page is no longer published.';

export async function servePublicConfirm(req: Request, slug: string, token: string): Promise<Response> {
  return handle(req, slug, async (limits) => {
    const post = req.method === 'POST';
    const view = await confirmationOf(await getDb(), token, { confirm: post });
    if (!view) {
      return html(
        404,
        { heading: 'This link does not work', pageTitle: null, base: null, paragraphs: [BAD_CONFIRM_LINK] },
        limits,
      );
    }
    const about = { pageTitle: view.pageTitle, base: base(view.slug) };
    if (view.state === 'expired') {
      return html(
        post ? 409 : 200,
        {
          ...about,
          heading: 'This link has expired',
          paragraphs: ['Subscribe again on the status page to get a new link.'],
        },
        limits,
      );
    }
    if (view.state === 'confirmed') {
      return html(
        200,
        {
          ...about,
          heading: 'You are subscribed',
          paragraphs: [
            `${view.email} receives this status page's incidents and maintenance notices. Every mail has a link to unsubscribe.`,
          ],
        },
        limits,
      );
    }
    return html(
      200,
      {
        ...about,
        heading: 'Confirm your subscription',
        paragraphs: [
          `Confirm that ${view.email} should receive this status page's incidents and maintenance notices. Nothing is sent until you do.`,
        ],
        button: { action: new URL(req.url).pathname, label: 'Confirm' },
      },
      limits,
    );
  });
}

export async function servePublicUnsubscribe(req: Request, slug: string, token: string): Promise<Response> {
  return handle(req, slug, async (limits) => {
    const post = req.method === 'POST';
    const view = await unsubscribeOf(await getDb(), token, { unsubscribe: post });
    if (!view) {
      return html(
        404,
        {
          heading: 'This link does not work',
          pageTitle: null,
          base: null,
          paragraphs: ['This unsubscribe link is not valid. Check that it was copied whole.'],
        },
        limits,
      );
    }
    const about = { pageTitle: view.pageTitle, base: null };
    if (!view.subscribed) {
      return html(
        200,
        {
          ...about,
          heading: 'You are unsubscribed',
          paragraphs: ['This address receives no more mail from this status page.'],
        },
        limits,
      );
    }
    return html(
      200,
      {
        ...about,
        heading: 'Unsubscribe',
        paragraphs: ["Stop this status page's incident and maintenance mail to this address."],
        button: { action: new URL(req.url).pathname, label: 'Unsubscribe' },
      },
      limits,
    );
  });
}
