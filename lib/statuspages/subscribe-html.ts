import { STYLE, subscribeSection } from './html';
import { escapeXml as e } from './markup';

/*
 * The pages a subscription answers with (lib/api/public-subscribe.ts): after the form, the
 * confirmation link's page and its button, the unsubscribe link's page and its button. Like the
 * status page: one HTML document, no script, the page's own style block (so its policy, PAGE_CSP,
 * holds unchanged), and a button is a form posting to the same URL on this origin.
 */

export interface SubscriptionPage {
  /** The document's title and its heading. */
  heading: string;
  /** The status page it is about (null: deleted since). */
  pageTitle: string | null;
  /** The status page's path, for the link back; null: none to go back to. */
  base: string | null;
  /** Paragraphs of plain text, escaped here. */
  paragraphs: string[];
  /** A button posting to `action` (the page's own URL). */
  button?: { action: string; label: string };
  /** The subscribe form again, with the problem the last submission had. */
  form?: { problem: string };
}

export function renderSubscriptionPage(page: SubscriptionPage): string {
  const about = page.pageTitle ? `<p class="note">${e(page.pageTitle)}</p>` : '';
  const button = page.button
    ? `<form method="post" action="${e(page.button.action)}"><button type="submit">${e(page.button.label)}</button></form>`
    : '';
  const form = page.form && page.base ? subscribeSection(page.base, page.form.problem) : '';
  const back = page.base ? `<p><a href="${e(page.base)}">Back to the status page</a></p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(page.heading)}</title><meta name="color-scheme" content="light dark"><meta name="robots" content="noindex">
<style>${STYLE}</style></head>
<body><div class="wrap"><main id="main"><header>${about}<h1>${e(page.heading)}</h1></header>
${page.paragraphs.map((p) => `<p>${e(p)}</p>`).join('\n')}
${button}${form}${back}</main></div></body></html>`;
}
