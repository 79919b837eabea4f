import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '@/lib/html/document';
import { extractSeoFacts, xRobotsTagNoindex } from '@/lib/seo/extract';
import { MAX_IMAGE_SAMPLES, MAX_STORED_SRC, MAX_STORED_TEXT, parseStoredSeoFacts } from '@/lib/seo/facts';

const PAGE = 'https://example.com/blog/post';

function extract(html: string, xRobotsTag?: string) {
  return extractSeoFacts(parseHtml(html), PAGE, { xRobotsTag });
}

describe('extractSeoFacts', () => {
  it('reads every fact from a complete page', () => {
    const facts = extract(`<!doctype html>
      <html lang="en-GB">
      <head>
        <title>
          Release notes
          for   March
        </title>
        <meta name="description" content="  What changed in the March release.  ">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="canonical" href="/blog/post">
      </head>
      <body><h1>Release notes</h1><img src="/a.png" alt="Chart"></body></html>`);

    expect(facts).toEqual({
      title: 'Release notes for March',
      titleLength: 23,
      description: 'What changed in the March release.',
      descriptionLength: 34,
      h1Count: 1,
      canonical: 'https://example.com/blog/post',
      lang: 'en-GB',
      noindex: null,
      viewport: true,
      imagesWithoutAltCount: 0,
      imagesWithoutAlt: [],
    });
  });

  it('reports absent elements as null, zero or false', () => {
    const facts = extract('<p>bare</p>');
    expect(facts).toMatchObject({
      title: null,
      titleLength: 0,
      description: null,
      descriptionLength: 0,
      h1Count: 0,
      canonical: null,
      lang: null,
      noindex: null,
      viewport: false,
    });
  });

  it('tells an empty title and description apart from missing ones', () => {
    const facts = extract('<title>  </title><meta name="description" content="">');
    expect(facts.title).toBe('');
    expect(facts.description).toBe('');
  });

  it('ignores the <title> of an inline SVG', () => {
    expect(extract('<body><svg><title>Logo</title></svg></body>').title).toBeNull();
    expect(extract('<title>Page</title><body><svg><title>Logo</title></svg></body>').title).toBe('Page');
  });

  it('matches meta names and rel tokens case-insensitively', () => {
    const facts = extract(
      '<META NAME="Description" CONTENT="Words"><meta name="VIEWPORT" content="width=device-width"><link rel="Alternate CANONICAL" href="https://example.com/x">',
    );
    expect(facts.description).toBe('Words');
    expect(facts.viewport).toBe(true);
    expect(facts.canonical).toBe('https://example.com/x');
  });

  it('treats a viewport tag without content as absent', () => {
    expect(extract('<meta name="viewport" content=" ">').viewport).toBe(false);
  });

  it('counts h1 headings', () => {
    expect(extract('<h1>a</h1><section><h1>b</h1></section><h1>c</h1>').h1Count).toBe(3);
  });

  it('resolves the canonical against <base href>, itself resolved against the page', () => {
    expect(extract('<base href="/docs/"><link rel="canonical" href="intro">').canonical).toBe(
      'https://example.com/docs/intro',
    );
    expect(extract('<base href="https://cdn.example.net/"><link rel="canonical" href="x">').canonical).toBe(
      'https://cdn.example.net/x',
    );
    expect(extract('<link rel="canonical" href="../about">').canonical).toBe('https://example.com/about');
  });

  it('keeps an unresolvable canonical raw and ignores a blank one', () => {
    expect(extract('<link rel="canonical" href="http://[bad">').canonical).toBe('http://[bad');
    expect(extract('<link rel="canonical" href="  ">').canonical).toBeNull();
  });

  it('treats a blank lang as missing', () => {
    expect(extract('<html lang=" "><body></body></html>').lang).toBeNull();
  });

  describe('noindex', () => {
    it.each([
      ['<meta name="robots" content="noindex, follow">'],
      ['<meta name="ROBOTS" content="NOINDEX">'],
      ['<meta name="googlebot" content="noindex">'],
      ['<meta name="robots" content="none">'],
      ['<meta name="robots" content="index"><meta name="robots" content="noindex">'],
    ])('is found in %s', (html) => {
      expect(extract(html).noindex).toBe('meta');
    });

    it.each([
      ['<meta name="robots" content="index, follow">'],
      ['<meta name="bingbot" content="noindex">'],
      ['<meta name="robots" content="noindexing">'],
      ['<meta name="description" content="noindex">'],
    ])('is not found in %s', (html) => {
      expect(extract(html).noindex).toBeNull();
    });

    it('comes from the X-Robots-Tag header when the markup allows indexing', () => {
      expect(extract('<title>x</title>', 'noindex, nofollow').noindex).toBe('x-robots-tag');
      expect(extract('<meta name="robots" content="noindex">', 'noindex').noindex).toBe('meta');
    });
  });
});

describe('xRobotsTagNoindex', () => {
  it.each([
    ['noindex', true],
    ['NoIndex', true],
    ['none', true],
    ['nofollow, noindex', true],
    ['googlebot: noindex', true],
    ['googlebot: nofollow, noindex', true],
    ['otherbot: noindex, googlebot: nofollow', false],
    ['otherbot: nofollow, noindex', false],
    ['unavailable_after: 25 Jun 2030 15:00:00 PST, noindex', true],
    ['max-snippet: 20', false],
    ['nofollow', false],
    ['', false],
  ])('%j -> %s', (header, expected) => {
    expect(xRobotsTagNoindex(header)).toBe(expected);
  });

  it('treats a missing header as allowing indexing', () => {
    expect(xRobotsTagNoindex(undefined)).toBe(false);
    expect(xRobotsTagNoindex(null)).toBe(false);
  });
});

describe('images without alt', () => {
  it('flags only images with no alt attribute at all', () => {
    const facts = extract(`<body>
      <img src="/decorative.png" alt="">
      <img src="/described.png" alt="A cat">
      <img src="/bare-alt.png" alt>
      <img src="/spacer.gif" role="presentation">
      <img src="/none.gif" role="none">
      <main><p><img src="/missing.png"></p></main>
    </body>`);
    expect(facts.imagesWithoutAltCount).toBe(1);
    expect(facts.imagesWithoutAlt).toEqual([
      { src: 'https://example.com/missing.png', selector: 'html > body > main > p > img' },
    ]);
  });

  it('locates images by position, anchored on the nearest unique id', () => {
    const html = `<body><div id="gallery"><img src="a.png"><img src="b.png"></div>
      <div><img data-src="lazy.png"></div><div><span><img></span></div></body>`;
    const facts = extractSeoFacts(parseHtml(html), PAGE);
    expect(facts.imagesWithoutAlt).toEqual([
      { src: 'https://example.com/blog/a.png', selector: '#gallery > img:nth-of-type(1)' },
      { src: 'https://example.com/blog/b.png', selector: '#gallery > img:nth-of-type(2)' },
      { src: 'https://example.com/blog/lazy.png', selector: 'html > body > div:nth-of-type(2) > img' },
      { src: null, selector: 'html > body > div:nth-of-type(3) > span > img' },
    ]);
    // Every selector finds its image again, in cheerio's own parse of the page.
    const $ = cheerio.load(html);
    for (const image of facts.imagesWithoutAlt) {
      expect($(String(image.selector)).length).toBe(1);
      expect($(String(image.selector)).attr('alt')).toBeUndefined();
    }
  });

  it('does not anchor on an id that appears twice', () => {
    const facts = extract('<div id="x"><img src="a.png"></div><div id="x"></div>');
    expect(facts.imagesWithoutAlt[0]?.selector).toBe('html > body > div:nth-of-type(1) > img');
  });
});

describe('stored size', () => {
  it('caps long texts, image sources and samples while keeping true lengths and counts', () => {
    const longTitle = 'word '.repeat(200).trim();
    const dataUri = `data:image/png;base64,${'A'.repeat(5000)}`;
    const images = Array.from({ length: 25 }, (_, i) => `<img src="/i${i}.png">`).join('');
    const facts = extract(`<title>${longTitle}</title><body><img src="${dataUri}">${images}</body>`);

    expect(facts.titleLength).toBe(longTitle.length);
    expect(facts.title).toHaveLength(MAX_STORED_TEXT);
    expect(facts.imagesWithoutAltCount).toBe(26);
    expect(facts.imagesWithoutAlt).toHaveLength(MAX_IMAGE_SAMPLES);
    expect(facts.imagesWithoutAlt[0]?.src).toHaveLength(MAX_STORED_SRC);
    expect(facts.imagesWithoutAlt[0]?.src?.startsWith('data:image/png;base64,')).toBe(true);
    expect(JSON.stringify(facts).length).toBeLessThan(3000);
  });

  it('measures length in characters, not UTF-16 units', () => {
    const facts = extract('<title>Café 😀 naïve</title>');
    expect(facts.titleLength).toBe(12);
  });

  it('round-trips through JSON and rejects malformed rows', () => {
    const facts = extract('<title>T</title><img src="/a.png">');
    expect(parseStoredSeoFacts(JSON.parse(JSON.stringify(facts)))).toEqual(facts);
    expect(parseStoredSeoFacts({ title: 'T' })).toBeNull();
    expect(parseStoredSeoFacts(null)).toBeNull();
  });
});

describe('document structure edges', () => {
  it('takes the title from outside every inline SVG, however deeply nested', () => {
    expect(extract('<svg><svg><title>Inner</title></svg></svg>').title).toBeNull();
    expect(
      extract(
        '<body><svg><foreignObject><title>In graphic</title></foreignObject></svg><title>Page</title></body>',
      ).title,
    ).toBe('Page');
  });

  it('uses the first canonical link that has an href', () => {
    expect(
      extract('<link rel="canonical" href="/first"><link rel="canonical" href="/second">').canonical,
    ).toBe('https://example.com/first');
    expect(extract('<link rel="canonical"><link rel="canonical" href="/second">').canonical).toBe(
      'https://example.com/second',
    );
  });

  it('splits rel tokens on any whitespace', () => {
    expect(extract('<link rel="alternate\tcanonical\n" href="/c">').canonical).toBe('https://example.com/c');
    expect(extract('<link rel="canonicalx" href="/c">').canonical).toBeNull();
  });

  it('reads meta tags wherever they are, the first description and viewport winning', () => {
    const facts = extract(`<body>
      <meta name="description" content="In body"><meta name="description" content="Second">
      <meta name="viewport" content=" "><meta name="viewport" content="width=device-width">
      <div><meta name="robots" content="noindex"></div>
    </body>`);
    expect(facts.description).toBe('In body');
    expect(facts.viewport).toBe(false);
    expect(facts.noindex).toBe('meta');
  });

  it('uses the first <base> that has an href', () => {
    expect(
      extract(
        '<base target="_blank"><base href="/docs/"><base href="/other/"><link rel="canonical" href="x">',
      ).canonical,
    ).toBe('https://example.com/docs/x');
  });

  it('reads uppercase tag and attribute names', () => {
    const facts = extract(
      '<HTML LANG="de"><HEAD><TITLE>Upper</TITLE><BASE HREF="/b/"><LINK REL="CANONICAL" HREF="c"></HEAD><BODY><H1>x</H1><IMG SRC="i.png" ROLE="img"></BODY></HTML>',
    );
    expect(facts).toMatchObject({
      title: 'Upper',
      lang: 'de',
      canonical: 'https://example.com/b/c',
      h1Count: 1,
      imagesWithoutAltCount: 1,
      imagesWithoutAlt: [{ src: 'https://example.com/b/i.png', selector: 'html > body > img' }],
    });
  });

  it('ignores the inert content of <template>, as browsers and the link extractor do', () => {
    const facts = extract(`<head><title>Page</title></head><body>
      <template><title>Row</title><meta name="robots" content="noindex"><link rel="canonical" href="/t">
        <h1>Row</h1><img src="/row.png"></template>
      <div id="slot"><img src="/real.png"></div>
      <template><div id="slot"></div></template>
    </body>`);
    expect(facts).toMatchObject({
      title: 'Page',
      noindex: null,
      canonical: null,
      h1Count: 0,
      imagesWithoutAltCount: 1,
    });
    // The id inside the template is not in the document, so the visible one is unique.
    expect(facts.imagesWithoutAlt).toEqual([
      { src: 'https://example.com/real.png', selector: '#slot > img' },
    ]);
  });

  it('ignores markup inside comments and scripts', () => {
    const facts = extract('<!-- <title>Old</title> --><script>document.write("<h1>x</h1><img>")</script><p>');
    expect(facts).toMatchObject({ title: null, h1Count: 0, imagesWithoutAltCount: 0 });
  });
});
