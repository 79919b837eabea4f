import type { AnyNode, Document, Element } from 'domhandler';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';

export type { AnyNode, Document, Element, Text } from 'domhandler';

/**
 * Elements open at once (the depth of the tree) past which parsing stops. parse5's tree builder
 * scans its whole stack of open elements for each block-level tag, so markup nested N deep costs
 * N² (200,000 nested `<div>`s, 1 MB, took five minutes); browsers themselves flatten the DOM past
 * 512 levels. At 1,024 the worst a page can cost stays bounded (markup held at that depth costs
 * about a second per megabyte) and real pages, a few dozen levels deep, are never cut.
 */
export const MAX_HTML_NESTING = 1024;

/**
 * Bytes of a fetched page that are parsed. Pages past a megabyte are rare and are big for inline
 * scripts, styles and data, not for links; parsing costs time on the shared event loop and about
 * ten times the bytes in tree memory, so a page of 20 MB of markup is never built in full.
 */
export const MAX_HTML_BYTES = 2 * 1024 * 1024;

/** Thrown from the tree adapter to stop parse5; what it built until then is kept. */
class NestingLimitReached extends Error {}

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
 *
 * Parsing stops where the markup nests deeper than MAX_HTML_NESTING; the document holds
 * everything before that point.
 */
export function parseHtml(html: string): Document {
  return parseBounded(html).document;
}

/**
 * Decodes (UTF-8) and parses the first MAX_HTML_BYTES of a page. `truncated` says why the rest
 * was not read, so that what the page links to may be incomplete: `bytes` past MAX_HTML_BYTES,
 * `nesting` past MAX_HTML_NESTING; null when the whole page was parsed.
 */
export function parseHtmlBytes(body: Buffer): {
  document: Document;
  truncated: 'bytes' | 'nesting' | null;
} {
  const tooLong = body.length > MAX_HTML_BYTES;
  const parsed = parseBounded((tooLong ? body.subarray(0, MAX_HTML_BYTES) : body).toString('utf8'));
  const truncated = parsed.nestingCut ? 'nesting' : tooLong ? 'bytes' : null;
  return { document: parsed.document, truncated };
}

function parseBounded(html: string): { document: Document; nestingCut: boolean } {
  let document: Document | undefined;
  let open = 0;
  // parse5 reports every push onto and pop off its stack of open elements to the tree adapter.
  const treeAdapter: typeof adapter = {
    ...adapter,
    createDocument() {
      document = adapter.createDocument();
      return document;
    },
    onItemPush() {
      if (++open > MAX_HTML_NESTING) throw new NestingLimitReached();
    },
    onItemPop() {
      open--;
    },
  };
  try {
    return { document: parse(html, { treeAdapter, scriptingEnabled: true }), nestingCut: false };
  } catch (error) {
    if (!(error instanceof NestingLimitReached) || document === undefined) throw error;
    return { document, nestingCut: true };
  }
}

/** domhandler's element types: `<script>` and `<style>` are elements with their own type. */
export function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/**
 * Visits every element under `nodes` in document order (pre-order, as the selector engine does).
 * `enter` gets the context its parent returned and returns the context for its own children.
 *
 * Iterative, with one frame per open ancestor: parse5 does not cap nesting (a 1 MB page of
 * `<div>`s is 200,000 levels deep), so a recursive walk over a stranger's page overflows the
 * stack. Like the tree builder, it descends only into elements, so the content of a `<template>`
 * (an inert document fragment under the element) is skipped.
 */
export function walkElements<C>(
  nodes: AnyNode[],
  context: C,
  enter: (element: Element, context: C) => C,
): void {
  const frames: { nodes: AnyNode[]; next: number; context: C }[] = [{ nodes, next: 0, context }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as (typeof frames)[number];
    if (frame.next >= frame.nodes.length) {
      frames.pop();
      continue;
    }
    const node = frame.nodes[frame.next++] as AnyNode;
    if (!isElement(node)) continue;
    const inner = enter(node, frame.context);
    if (node.children.length > 0) frames.push({ nodes: node.children, next: 0, context: inner });
  }
}
