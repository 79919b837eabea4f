import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '@/lib/html/document';

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
