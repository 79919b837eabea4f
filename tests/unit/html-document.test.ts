import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { MAX_HTML_BYTES, MAX_HTML_NESTING, parseHtml, parseHtmlBytes } from '@/lib/html/document';

/** Markup where a spec-compliant parser's tree differs from the source's nesting. */
const CASES = {
  'implied html, head and body': '<title>t</title><p>text',
  'a table foster-parents stray content': '<table><tr><td>1</td></tr>stray<a href="/x">x</a></table>',
  'a <p> closed by a block': '<p>one<div>two</div><p>three<ul><li><a href="/y">y</a></ul>',
  'noscript is text with scripting on': '<head><noscript><a href="/n">n</a></noscript></head><body>b</body>',
  'template content stays inert': '<template><a href="/t">t</a></template><a href="/u">u</a>',
  'misnested formatting is reconstructed': '<b><i>bi</b>i</i><a href="/z">z</a>',
};

describe('parseHtml', () => {
  it.each(Object.entries(CASES))('builds the tree cheerio.load builds: %s', (_, html) => {
    expect(load(parseHtml(html)).html()).toBe(load(html).html());
  });
});

describe('parseHtmlBytes', () => {
  const links = (document: ReturnType<typeof parseHtml>) =>
    load(document)('a')
      .toArray()
      .map((a) => a.attribs.href);

  it('parses a whole ordinary page', () => {
    const { document, truncated } = parseHtmlBytes(Buffer.from('<a href="/a">a</a><a href="/b">b</a>'));
    expect(truncated).toBeNull();
    expect(links(document)).toEqual(['/a', '/b']);
  });

  it('parses only the first MAX_HTML_BYTES of a bigger page, and says so', () => {
    const filler = `<p>${'x'.repeat(MAX_HTML_BYTES)}</p>`;
    const { document, truncated } = parseHtmlBytes(
      Buffer.from(`<a href="/before">b</a>${filler}<a href="/after">a</a>`),
    );
    expect(truncated).toBe('bytes');
    expect(links(document)).toEqual(['/before']);
  });

  it('stops where markup nests deeper than MAX_HTML_NESTING, keeping what came before', () => {
    // 200,000 nested <div>s (1 MB) cost parse5 minutes: each block tag scans every open element.
    const html = `<a href="/top">t</a>${'<div>'.repeat(MAX_HTML_NESTING - 10)}<a href="/deep">d</a>${'<div>'.repeat(200_000)}<a href="/bottom">b</a>`;
    const { document, truncated } = parseHtmlBytes(Buffer.from(html));
    expect(truncated).toBe('nesting');
    expect(links(document)).toEqual(['/top', '/deep']);
  });

  it('parses the nesting of issue 10 whole: 1,000 levels is within the bound', () => {
    const html = `${'<div>'.repeat(1000)}<a href="/in">in</a>${'</div>'.repeat(1000)}<a href="/after">a</a>`;
    const { document, truncated } = parseHtmlBytes(Buffer.from(html));
    expect(truncated).toBeNull();
    expect(links(document)).toEqual(['/in', '/after']);
  });
});
