import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from '../support/http-server';

/**
 * The accessibility benchmark's site: `pages` pages on 127.0.0.1 built like a small company site's
 * (shared stylesheet and script, header navigation, images, a contact form, a price table, an
 * embedded iframe, a footer), each linking to its neighbours. Real accessibility problems of about
 * fifteen kinds are switched on by the page number with different moduli, so no two neighbouring
 * pages have the same findings; every fourth frame has its own problems, which only a tool that
 * checks inside frames reports.
 */

/** A valid 1x1 PNG, served at every image path and scaled by the markup (decoding costs the same). */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const CSS = `
:root { --ink: #1d2430; --paper: #ffffff; --accent: #0b5cad; --line: #d5dbe3; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
header, footer { padding: 1rem 2rem; background: #f3f5f8; border-bottom: 1px solid var(--line); }
nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
nav a, main a { color: var(--accent); }
main { max-width: 60rem; margin: 0 auto; padding: 2rem; }
.hero { display: grid; grid-template-columns: 2fr 1fr; gap: 2rem; align-items: center; }
.hero img { width: 100%; height: 12rem; object-fit: cover; background: #c9d6e4; }
.cards { display: grid; grid-template-columns: repeat(3, 1fr); gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; }
.card img { width: 100%; height: 6rem; background: #e4eaf1; }
.muted { color: #a0a0a0; }
.badge { color: #ffffff; background: #f5a623; padding: 0 .4rem; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--line); padding: .4rem .6rem; text-align: left; }
form { display: grid; gap: .6rem; max-width: 28rem; }
input, select, textarea { font: inherit; padding: .4rem; border: 1px solid #8a94a3; }
.icons a { display: inline-block; width: 12px; height: 12px; margin: 0; background: var(--accent); }
iframe { width: 100%; height: 10rem; border: 1px solid var(--line); }
footer { border-top: 1px solid var(--line); border-bottom: 0; margin-top: 2rem; }
`;

const JS = `
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('[data-toggle]')) {
    button.addEventListener('click', () => {
      const target = document.getElementById(button.dataset.toggle);
      if (target) target.hidden = !target.hidden;
    });
  }
  const year = document.querySelector('[data-year]');
  if (year) year.textContent = String(new Date().getFullYear());
});
`;

const TOPICS = ['pricing', 'support', 'careers', 'blog', 'product', 'security', 'partners', 'events'];
const LOREM =
  'Our team helps organisations keep their websites fast, correct and open to everyone. ' +
  'This page explains what we offer, how it works, and where to get help when something breaks. ';

/** Page `i`'s problem switches; each `on(n, r)` is true for one page in n. */
function problems(i: number) {
  const on = (n: number, r: number) => i % n === r;
  return {
    imageWithoutAlt: on(5, 0),
    emptyButton: on(7, 1),
    unlabelledInput: on(3, 2),
    lowContrast: on(4, 1),
    imageOnlyLink: on(6, 2),
    noLang: on(8, 3),
    skippedHeading: on(9, 4),
    smallTargets: on(10, 5),
    noH1: on(11, 6),
    scopeOnCell: on(12, 7),
    positiveTabindex: on(14, 8),
    badAriaValue: on(17, 11),
    brokenList: on(18, 12),
    outsideLandmarks: on(19, 13),
    untitledFrame: on(13, 0),
    unlabelledSelect: on(16, 10),
  };
}

function pageHtml(i: number, pages: number): string {
  const p = problems(i);
  const link = (n: number, text: string) => `<a href="/page/${((n % pages) + pages) % pages}">${text}</a>`;
  const topic = TOPICS[i % TOPICS.length] as string;
  const rows = Array.from(
    { length: 6 + (i % 5) },
    (_, r) =>
      `<tr><${p.scopeOnCell && r === 0 ? 'td scope="row"' : 'th scope="row"'}>Plan ${r + 1}</${p.scopeOnCell && r === 0 ? 'td' : 'th'}><td>${(r + 1) * 9} €</td><td>${(r + 1) * 50} pages</td><td>${r % 2 ? 'Yes' : 'No'}</td></tr>`,
  ).join('');
  const cards = Array.from(
    { length: 3 },
    (_, c) => `<article class="card">
      <img src="/img/card-${(i + c) % 40}.png" ${p.imageWithoutAlt && c === 1 ? '' : `alt="Illustration for ${topic} ${c + 1}"`}>
      <h3>${topic} guide ${c + 1}</h3>
      <p>${LOREM}</p>
      ${p.imageOnlyLink && c === 2 ? `<a href="/page/${(i + 7) % pages}"><img src="/img/arrow.png" alt=""></a>` : link(i + c + 2, `Read the ${topic} guide ${c + 1}`)}
    </article>`,
  ).join('');
  return `<!doctype html>
<html${p.noLang ? '' : ' lang="en"'}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${topic} ${i} · Example Co</title>
<link rel="stylesheet" href="/assets/site.css">
<script src="/assets/site.js" defer></script>
</head>
<body>
<header>
  <a href="/page/0"><img src="/img/logo.png" alt="Example Co home" width="120" height="32"></a>
  <nav aria-label="Main"><ul>
    <li>${link(i - 1, 'Previous')}</li><li>${link(i + 1, 'Next')}</li><li>${link(i + 10, 'Related')}</li>
    <li>${link(i * 3 + 1, 'Popular')}</li><li>${link(0, 'Home')}</li>
  </ul></nav>
  <button type="button" data-toggle="menu-${i}"${p.emptyButton ? '></button>' : '>Menu</button>'}
  <ul id="menu-${i}" hidden><li>${link(i + 20, 'Archive')}</li></ul>
</header>
${p.outsideLandmarks ? `<div class="promo"><p>Spring offer: two months free on annual plans.</p></div>` : ''}
<main>
  ${p.noH1 ? `<h2>${topic} page ${i}</h2>` : `<h1>${topic} page ${i}</h1>`}
  <section class="hero">
    <div>
      <p>${LOREM.repeat(2)}</p>
      <p${p.lowContrast ? ' class="muted"' : ''}>Last reviewed by the ${topic} team. ${LOREM}</p>
      ${p.positiveTabindex ? '<a href="#contact" tabindex="3">Contact us</a>' : '<a href="#contact">Contact us</a>'}
    </div>
    <img src="/img/hero-${i % 25}.png" alt="Team at work on ${topic}">
  </section>
  <h2>Guides</h2>
  <div class="cards">${cards}</div>
  ${p.skippedHeading ? '<h4>Frequently asked</h4>' : '<h3>Frequently asked</h3>'}
  ${
    p.brokenList
      ? '<ul><li>How do I start?</li><div>Sign up and add your site.</div></ul>'
      : '<ul><li>How do I start?</li><li>Sign up and add your site.</li></ul>'
  }
  <button type="button" aria-expanded="${p.badAriaValue ? 'yes' : 'false'}" data-toggle="faq-${i}">Show more answers</button>
  <div id="faq-${i}" hidden><p>${LOREM}</p></div>
  <h2>Plans</h2>
  <table>
    <caption>Plans compared</caption>
    <thead><tr><th scope="col">Plan</th><th scope="col">Price</th><th scope="col">Pages</th><th scope="col">Support</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>
  <h2>Share</h2>
  <p class="icons">${
    p.smallTargets
      ? '<a href="/share/a" aria-label="Share by mail"></a><a href="/share/b" aria-label="Share on the web"></a><a href="/share/c" aria-label="Print"></a>'
      : '<a href="/share/a">Share by mail</a> · <a href="/share/b">Share on the web</a>'
  }</p>
  <h2 id="contact">Contact us</h2>
  <form action="/contact" method="post">
    <label for="name-${i}">Name</label><input id="name-${i}" name="name" autocomplete="name">
    <label for="email-${i}">Email</label><input id="email-${i}" name="email" type="email" autocomplete="email">
    ${p.unlabelledInput ? '<input name="company" placeholder="Company">' : `<label for="company-${i}">Company</label><input id="company-${i}" name="company">`}
    ${p.unlabelledSelect ? '<select name="topic">' : `<label for="topic-${i}">Topic</label><select id="topic-${i}" name="topic">`}
      ${TOPICS.map((t) => `<option>${t}</option>`).join('')}
    </select>
    <label for="message-${i}">Message</label><textarea id="message-${i}" name="message" rows="4"></textarea>
    <button type="submit">Send</button>
  </form>
  <h2>Status</h2>
  <iframe src="/frame/${i % 20}"${p.untitledFrame ? '' : ` title="Service status ${i % 20}"`}></iframe>
</main>
<footer>
  <p>© <span data-year>2026</span> Example Co · ${link(i + 50, 'Imprint')} · ${link(i + 51, 'Privacy')}</p>
</footer>
</body>
</html>`;
}

/**
 * The embedded status widget; frames 0, 4, 8, ... carry their own problems. A widget, not a page:
 * no heading or landmark of its own, which axe would weigh with the page's (a second `main` fails
 * landmark-unique, an `h1` in the frame satisfies page-has-heading-one for a page without one).
 */
function frameHtml(n: number): string {
  const broken = n % 4 === 0;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Status</title>
<link rel="stylesheet" href="/assets/site.css"></head><body>
<p><strong>Service status:</strong> all systems operational.</p>
<img src="/img/status-${n}.png"${broken ? '' : ' alt="Green status light"'}>
${broken ? '<button type="button"></button>' : '<button type="button">Refresh</button>'}
</body></html>`;
}

export interface A11yBenchSite {
  server: TestServer;
  urls: string[];
  close(): Promise<void>;
}

export async function startA11ySite(pages: number): Promise<A11yBenchSite> {
  const respond = (res: ServerResponse, type: string, body: string | Buffer) => {
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = await startServer('127.0.0.1', {
    '/assets/site.css': { headers: { 'content-type': 'text/css' }, body: CSS },
    '/assets/site.js': { headers: { 'content-type': 'text/javascript' }, body: JS },
    '*': (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const page = /^\/page\/(\d+)$/.exec(path);
      const frame = /^\/frame\/(\d+)$/.exec(path);
      if (page && Number(page[1]) < pages)
        return respond(res, 'text/html; charset=utf-8', pageHtml(Number(page[1]), pages));
      if (frame) return respond(res, 'text/html; charset=utf-8', frameHtml(Number(frame[1])));
      if (path.startsWith('/img/')) return respond(res, 'image/png', PIXEL);
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    },
  });
  return {
    server,
    urls: Array.from({ length: pages }, (_, i) => server.url(`/page/${i}`)),
    close: () => server.close(),
  };
}
