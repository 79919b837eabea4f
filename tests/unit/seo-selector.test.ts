import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { MAX_SELECTOR_LENGTH, MAX_SELECTOR_STEPS, positionalSelector } from '@/lib/seo/selector';

const HTML = `<body>
  <div id="gallery"><img src="a.png"><p><img src="b.png"></p><img src="c.png"></div>
  <div id="dup"><img src="d.png"></div><section id="dup"></section>
  <table><tr><td>1</td><td><img src="e.png"></td></tr><tr><td><img src="f.png"></td></tr></table>
</body>`;

function images($: cheerio.CheerioAPI): Element[] {
  return $('img').toArray();
}

describe('positionalSelector', () => {
  it('finds each element again, and only it', () => {
    const $ = cheerio.load(HTML);
    for (const image of images($)) {
      const selector = positionalSelector(image);
      expect($(String(selector)).toArray()).toEqual([image]);
    }
  });

  it('anchors on the nearest unique id and numbers only repeated tags', () => {
    const $ = cheerio.load(HTML);
    expect(images($).map((image) => positionalSelector(image))).toEqual([
      '#gallery > img:nth-of-type(1)',
      '#gallery > p > img',
      '#gallery > img:nth-of-type(2)',
      'html > body > div:nth-of-type(2) > img',
      'html > body > table > tbody > tr:nth-of-type(1) > td:nth-of-type(2) > img',
      'html > body > table > tbody > tr:nth-of-type(2) > td > img',
    ]);
  });

  it('takes id uniqueness from the caller when it already knows', () => {
    const $ = cheerio.load(HTML);
    const [first] = images($);
    if (!first) throw new Error('fixture has images');
    expect(positionalSelector(first, () => false)).toBe(
      'html > body > div:nth-of-type(1) > img:nth-of-type(1)',
    );
    expect(positionalSelector(first, (id) => id === 'gallery')).toBe('#gallery > img:nth-of-type(1)');
  });

  it('stays bounded on deep pages: an anchor within reach, else no selector rather than a wrong one', () => {
    const depth = 2_000;
    const html = `<body>${'<div>'.repeat(depth)}<img src="deep.png">${'</div>'.repeat(depth)}
      <section>${'<p>'.repeat(10)}<div id="near">${'<span>'.repeat(MAX_SELECTOR_STEPS - 2)}<img src="near.png"></div></section>
      <div>${'<span>'.repeat(MAX_SELECTOR_STEPS)}<img src="far.png"></div>
      <div>${`<${'x'.repeat(200)}>`.repeat(4)}<img src="long.png"></div></body>`;
    const $ = cheerio.load(html);
    const [deep, near, far, long] = images($);
    if (!deep || !near || !far || !long) throw new Error('fixture has four images');
    expect(positionalSelector(deep)).toBeNull();
    expect(positionalSelector(far)).toBeNull();
    expect(positionalSelector(long)).toBeNull();
    const anchored = positionalSelector(near);
    expect(anchored?.startsWith('#near > ')).toBe(true);
    expect(anchored?.length).toBeLessThanOrEqual(MAX_SELECTOR_LENGTH);
    expect($(String(anchored)).toArray()).toEqual([near]);
  });
});
