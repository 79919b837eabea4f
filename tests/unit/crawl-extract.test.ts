import { load } from 'cheerio';
import { Element, Text } from 'domhandler';
import { describe, expect, it } from 'vitest';
import {
  extractLinks,
  MAX_JSON_LD_CHARS,
  MAX_JSON_LD_URLS,
  MAX_LINKS_PER_PAGE,
  parseMetaRefresh,
  parseSrcset,
} from '@/lib/crawl/engine/extract';
import { parseHtml } from '@/lib/html/document';
import { MAX_SELECTOR_LENGTH, MAX_SELECTOR_STEPS } from '@/lib/seo/selector';

const PAGE = 'https://example.com/docs/guide/index.html';

/** `$` is cheerio over a parse of its own, so a selector is checked against a tree built apart. */
function extract(html: string, pageUrl = PAGE) {
  return { $: load(html), ...extractLinks(parseHtml(html), pageUrl) };
}

describe('extractLinks', () => {
  it('resolves relative links and drops fragments', () => {
    const { links } = extract(`
      <a href="intro.html">Intro</a>
      <a href="../api/#methods">API</a>
      <a href="/about?x=1#team">About</a>
      <a href="https://other.net/page">Other</a>`);
    expect(links.map((l) => l.url)).toEqual([
      'https://example.com/docs/guide/intro.html',
      'https://example.com/docs/api/',
      'https://example.com/about?x=1',
      'https://other.net/page',
    ]);
  });

  it('honours <base href>, itself relative to the page, even for links above it', () => {
    const { links, baseUrl } = extract(`
      <html><head><link rel="stylesheet" href="main.css"><base href="/static/v2/"></head>
      <body><a href="page">p</a><base href="/ignored/"></body></html>`);
    expect(baseUrl).toBe('https://example.com/static/v2/');
    expect(links.map((l) => l.url)).toEqual([
      'https://example.com/static/v2/main.css',
      'https://example.com/static/v2/page',
    ]);
  });

  it('ignores non-http schemes, empty and same-page fragment links', () => {
    const { links } = extract(`
      <a href="mailto:a@example.com">m</a><a href="tel:+123">t</a><a href="javascript:void(0)">j</a>
      <img src="data:image/png;base64,iVBORw0KGgo="><a href="ftp://example.com/f">f</a>
      <a href="#top">top</a><a href="">self</a><a>no href</a><a href=" JavaScript:alert(1)">x</a>
      <a href="ok">ok</a>`);
    expect(links.map((l) => l.url)).toEqual(['https://example.com/docs/guide/ok']);
  });

  it('collects every supported source', () => {
    const { links } = extract(`
      <html><head>
        <link rel="stylesheet" href="/s.css"><link rel="canonical" href="/canon">
        <link rel="alternate" hreflang="fr" href="/fr/"><link rel="shortcut icon" href="/favicon.ico">
        <link rel="apple-touch-icon" href="/touch.png"><link rel="preconnect" href="https://fonts.example">
        <script src="/app.js"></script><script>inline()</script>
      </head><body>
        <img src="/a.png" srcset="/a-2x.png 2x, /a-3x.png 3x">
        <picture><source srcset="/b.webp 1x, /b@2.webp 2x" type="image/webp"><source src="/b.ogg"></picture>
        <iframe src="/embed"></iframe>
        <video src="/v.mp4" poster="/poster.jpg"><track src="/subs.vtt"></video><audio src="/a.mp3"></audio>
        <map><area href="/region" alt="Region"></map>
      </body></html>`);
    expect(links.map((l) => [l.tag, new URL(l.url).pathname])).toEqual([
      ['link', '/s.css'],
      ['link', '/canon'],
      ['link', '/fr/'],
      ['link', '/favicon.ico'],
      ['link', '/touch.png'],
      ['script', '/app.js'],
      ['img', '/a.png'],
      ['img', '/a-2x.png'],
      ['img', '/a-3x.png'],
      ['source', '/b.webp'],
      ['source', '/b@2.webp'],
      ['source', '/b.ogg'],
      ['iframe', '/embed'],
      ['video', '/v.mp4'],
      ['video', '/poster.jpg'],
      ['track', '/subs.vtt'],
      ['audio', '/a.mp3'],
      ['area', '/region'],
    ]);
  });

  it('reports a meta refresh target', () => {
    const { links, metaRefresh } = extract(
      `<head><meta http-equiv="Refresh" content="0; url='/moved-here'"></head>`,
    );
    expect(metaRefresh).toBe('https://example.com/moved-here');
    expect(links).toEqual([expect.objectContaining({ tag: 'meta', url: 'https://example.com/moved-here' })]);
    expect(extract('<meta http-equiv="refresh" content="30">').metaRefresh).toBeUndefined();
  });

  it('labels links with text, else alt, aria-label or title', () => {
    const { links } = extract(`
      <a href="/1">  Read
         the   <b>docs</b> </a>
      <a href="/2"><img src="/logo.png" alt="Company logo"></a>
      <a href="/3" aria-label="Close dialog"><svg></svg></a>
      <a href="/4" title="Titled"></a>
      <a href="/5"></a>
      <a href="/6">${'long '.repeat(100)}</a>`);
    const byPath = Object.fromEntries(
      links.filter((l) => l.tag === 'a').map((l) => [new URL(l.url).pathname, l.text]),
    );
    expect(byPath['/1']).toBe('Read the docs');
    expect(byPath['/2']).toBe('Company logo');
    expect(byPath['/3']).toBe('Close dialog');
    expect(byPath['/4']).toBe('Titled');
    expect(byPath['/5']).toBeNull();
    expect(byPath['/6']).toHaveLength(200);
  });

  it('records id, class, rel, title and aria-label', () => {
    const { links } = extract(`
      <a href="/x" id="cta" class="btn primary" rel="nofollow" data-x="1" title="Go">Go</a><a href="/y">y</a>`);
    expect(links[0]?.attrs).toEqual({
      id: 'cta',
      class: 'btn primary',
      rel: 'nofollow',
      title: 'Go',
    });
    expect(links[1]?.attrs).toBeNull();
  });

  it('builds selectors that find the same element again', () => {
    const html = `<!doctype html><html><head><link rel="stylesheet" href="/s.css"></head><body>
      <header><nav><a href="/a">a</a><a href="/b">b</a></nav></header>
      <main><p>text <a href="/c">c</a></p><p><span></span><a href="/d">d</a><a href="/e">e</a></p>
        <section id="news"><div><a href="/f">f</a></div></section>
        <div id="dup"><a href="/g">g</a></div><div id="dup"><a href="/h">h</a></div>
        <div id="1bad"><a href="/i">i</a></div>
        <ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/item/${i}">${i}</a></li>`).join('')}</ul>
      </main><img src="/end.png" id="end"></body></html>`;
    const { $, links } = extract(html);
    expect(links.length).toBe(23);
    for (const link of links) {
      const selector = String(link.selector);
      const found = $(selector);
      expect(found.length, selector).toBe(1);
      const attr = link.tag === 'img' ? 'src' : 'href';
      expect(new URL(found.attr(attr) ?? '', PAGE).href, selector).toBe(link.url);
    }
    const selectorOf = (path: string) => links.find((l) => new URL(l.url).pathname === path)?.selector;
    expect(selectorOf('/b')).toBe(
      'html > body > header:nth-of-type(1) > nav:nth-of-type(1) > a:nth-of-type(2)',
    );
    expect(selectorOf('/f')).toBe('#news > div:nth-of-type(1) > a:nth-of-type(1)');
    expect(selectorOf('/end.png')).toBe('#end');
    // Duplicate and non-identifier ids fall back to positions.
    expect(selectorOf('/h')?.startsWith('html > body > main:nth-of-type(1) > div:nth-of-type(')).toBe(true);
    expect(selectorOf('/i')?.startsWith('html > body')).toBe(true);
  });
});

function appendChild(parent: Element, child: Element | Text): void {
  child.parent = parent;
  parent.children.push(child);
}

describe('extractLinks on hostile pages', () => {
  /** The page of issue 10: 1,000 nested elements around 20,000 links, about 250 KB. */
  const hostile = `<html><body>${'<div>'.repeat(1000)}${Array.from(
    { length: 20_000 },
    (_, i) => `<a href="/p${i}">${i}</a>`,
  ).join('')}${'</div>'.repeat(1000)}</body></html>`;

  it('takes at most MAX_LINKS_PER_PAGE links, says so, and keeps every selector bounded', () => {
    expect(hostile.length).toBeGreaterThan(250_000);
    const { links, linksCapped } = extractLinks(parseHtml(hostile), PAGE);
    expect(linksCapped).toBe(true);
    expect(links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(links.at(-1)?.url).toBe(`https://example.com/p${MAX_LINKS_PER_PAGE - 1}`);
    // Linear cost: what the selectors hold is bounded per link, whatever the depth (a full-depth
    // selector here is over 20,000 characters, 200 MB for the page).
    const selectorChars = links.reduce((sum, l) => sum + (l.selector?.length ?? 0), 0);
    expect(selectorChars).toBeLessThanOrEqual(links.length * MAX_SELECTOR_LENGTH);
    // 1,000 levels without an id: no bounded selector finds these links, so none is given.
    expect(links.every((l) => l.selector === null)).toBe(true);
  });

  it('is not capped below the limit', () => {
    const html = Array.from({ length: MAX_LINKS_PER_PAGE }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    const { links, linksCapped } = extractLinks(parseHtml(html), PAGE);
    expect(links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(linksCapped).toBe(false);
  });

  it('walks nesting deeper than the stack', () => {
    // A tree built by hand, since parsing stops at MAX_HTML_NESTING: 200,000 levels deep, past any
    // recursive walk, with an anchor at the bottom whose label is read without recursion too.
    const depth = 200_000;
    const document = parseHtml('<html><body><div></div></body></html>');
    let parent = load(document)('div')[0] as Element;
    for (let i = 0; i < depth; i++) {
      const child = new Element(i === depth - 1 ? 'a' : 'span', i === depth - 1 ? { href: '/bottom' } : {});
      appendChild(parent, child);
      parent = child;
    }
    for (let i = 0; i < depth; i++) {
      const child = new Element('b', {});
      appendChild(parent, child);
      parent = child;
    }
    appendChild(parent, new Text('deep'));
    const { links } = extractLinks(document, PAGE);
    expect(links).toEqual([
      expect.objectContaining({
        url: 'https://example.com/bottom',
        selector: null,
        text: null,
        asset: false,
      }),
    ]);
  });

  it('anchors deep links on a near unique id, within the bounds, and cheerio finds them', () => {
    const html = `<body>${'<div>'.repeat(100)}<section id="list">${'<ul><li>'.repeat(5)}<a href="/x">x</a>${'</li></ul>'.repeat(5)}</section>
      ${'<span>'.repeat(MAX_SELECTOR_STEPS)}<a href="/y">y</a></body>`;
    const { $, links } = extract(html);
    const [x, y] = links;
    expect(x?.selector?.startsWith('#list > ul:nth-of-type(1) > li:nth-of-type(1) > ')).toBe(true);
    expect($(String(x?.selector)).attr('href')).toBe('/x');
    expect(y?.selector).toBeNull();
  });
});

describe('extractLinks fidelity', () => {
  it('keeps links that are not URLs at all, as written, to be reported invalid', () => {
    const { links } = extract(`
      <a href="//////">oh noes</a><a href=" http:// ">empty host</a><a href="https://exa mple.com/">space</a>
      <a href="irc://irc.example.net/%23chan">irc</a><a href="mailto:a@example.com">m</a>
      <a href="">self</a><a href="#">top</a>`);
    expect(links.map((l) => [l.url, l.text])).toEqual([
      ['//////', 'oh noes'],
      ['http://', 'empty host'],
      ['https://exa mple.com/', 'space'],
    ]);
  });

  it('checks the URLs that social cards publish, labelled by their property', () => {
    const { $, links } = extract(`<html><head>
      <meta name="twitter:card" content="summary">
      <meta property="og:url" content="/canonical-share">
      <meta property="og:title" content="Title">
      <meta property="og:image" content="/share.png">
      <meta property="og:image:secure_url" content="https://cdn.example.net/share.png">
      <meta name="twitter:image" content="/card.png">
      <meta property="og:video" content="">
      <meta name="og:audio" content="/sound.mp3">
      </head><body></body></html>`);
    expect(links.map((l) => [l.text, l.url, l.asset])).toEqual([
      ['og:url', 'https://example.com/canonical-share', false],
      ['og:image', 'https://example.com/share.png', true],
      ['og:image:secure_url', 'https://cdn.example.net/share.png', true],
      ['twitter:image', 'https://example.com/card.png', true],
      ['og:audio', 'https://example.com/sound.mp3', true],
    ]);
    for (const link of links) {
      expect(link.tag).toBe('meta');
      expect($(String(link.selector)).attr('content'), String(link.selector)).toBeDefined();
    }
  });

  it('checks url, image and logo in JSON-LD, at any depth, each as the script element', () => {
    const jsonLd = {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'NewsArticle',
          headline: 'A headline with https://not-a-link.example in its text',
          image: ['/photos/1x1.jpg', { '@type': 'ImageObject', url: '/photos/4x3.jpg' }],
          author: { '@type': 'Person', name: 'J', url: 'https://example.com/authors/j' },
          publisher: { '@type': 'Organization', logo: { '@type': 'ImageObject', url: '/logo.png' } },
        },
        { '@type': 'WebSite', url: '/' },
      ],
    };
    const { $, links } = extract(`<html><head>
      <script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
      <script type="application/ld+json">{ not json </script>
      <script type="text/plain">{"url": "/ignored"}</script>
      </head><body></body></html>`);
    expect(links.map((l) => [l.text, new URL(l.url).pathname, l.asset])).toEqual([
      ['JSON-LD image', '/photos/1x1.jpg', true],
      ['JSON-LD image', '/photos/4x3.jpg', true],
      ['JSON-LD url', '/authors/j', false],
      ['JSON-LD logo', '/logo.png', true],
      ['JSON-LD url', '/', false],
    ]);
    for (const link of links) {
      expect(link.tag).toBe('script');
      expect($(String(link.selector)).attr('type')).toBe('application/ld+json');
    }
  });

  it('bounds the JSON-LD it reads', () => {
    const many = { image: Array.from({ length: MAX_JSON_LD_URLS + 50 }, (_, i) => `/i${i}.png`) };
    const huge = { url: '/huge', padding: 'x'.repeat(MAX_JSON_LD_CHARS) };
    const deep = `${'['.repeat(50_000)}"/deep"${']'.repeat(50_000)}`;
    const { links } = extract(`
      <script type="application/ld+json">${JSON.stringify(many)}</script>
      <script type="application/ld+json">${JSON.stringify(huge)}</script>
      <script type="application/ld+json">{"image": ${deep}}</script>`);
    expect(links.filter((l) => l.url.includes('/i'))).toHaveLength(MAX_JSON_LD_URLS);
    expect(links.some((l) => l.url.endsWith('/huge'))).toBe(false);
    expect(links.some((l) => l.url.endsWith('/deep'))).toBe(true);
  });
});

describe('parseSrcset', () => {
  it('splits candidates and drops descriptors', () => {
    expect(parseSrcset('a.png 1x, b.png 2x')).toEqual(['a.png', 'b.png']);
    expect(parseSrcset('a.png')).toEqual(['a.png']);
    expect(parseSrcset('a.png, b.png 2x,c.png')).toEqual(['a.png', 'b.png', 'c.png']);
    expect(parseSrcset('a.png 1x,, b.png 2x')).toEqual(['a.png', 'b.png']);
    expect(parseSrcset('  a.png   480w ,\n b.png 800w  ')).toEqual(['a.png', 'b.png']);
  });

  it('keeps commas inside URLs, as browsers do', () => {
    // A URL runs to the next whitespace; only trailing commas end it.
    expect(parseSrcset('a.png,b.png 2x')).toEqual(['a.png,b.png']);
    expect(parseSrcset('/img/w_400,h_300/photo.jpg 1x, /img/w_800,h_600/photo.jpg 2x')).toEqual([
      '/img/w_400,h_300/photo.jpg',
      '/img/w_800,h_600/photo.jpg',
    ]);
  });
});

describe('parseMetaRefresh', () => {
  it('reads the common spellings', () => {
    expect(parseMetaRefresh('0; url=/next')).toBe('/next');
    expect(parseMetaRefresh('5;URL="https://e.com/x"')).toBe('https://e.com/x');
    expect(parseMetaRefresh('0, /next')).toBe('/next');
    expect(parseMetaRefresh("0; url = 'a b'")).toBe('a b');
    expect(parseMetaRefresh('10')).toBeNull();
  });
});
