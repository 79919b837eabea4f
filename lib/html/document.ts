import type { Document } from 'domhandler';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';

export type { AnyNode, Document, Element, Text } from 'domhandler';

const OPTIONS = { treeAdapter: adapter, scriptingEnabled: true } as const;

/**
 * Parses an HTML document into the tree `cheerio.load` builds (parse5's spec-compliant tree
 * construction, domhandler nodes, scripting on so `<noscript>` is text as in a browser), without
 * the `$` wrapper around it: `$(selector)` on `cheerio.load(html)` finds the same nodes.
 *
 * Why not `cheerio.load` for every crawled page: each call defines a fresh class whose closure
 * holds the tree, and V8 keeps those in the old generation, so every page's whole tree outlived
 * the scavenges meant to free it. `npm run bench:parse` measures both on the crawl benchmark's
 * pages: per 20,000 pages, 21 full collections through `load` and 2 through this function, which
 * takes a half to three quarters of the time per page.
 */
export function parseHtml(html: string): Document {
  return parse(html, OPTIONS);
}
