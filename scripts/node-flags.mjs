// Node flags the server runs with (scripts/start.mjs), and so does the crawl benchmark's measured
// process (tests/bench/crawl.bench.ts), so what is measured is what runs.
//
// A heap limit sized to the server instead of Node's default (a share of the machine's memory,
// several GB here): V8 grows the heap lazily toward its limit, and a crawl allocates fast (parse5
// makes about 60 times a page's size in short-lived objects), so with the default the heap reached
// 185 MB holding 40 MB of live data. With 1 GB it collects sooner: peak RSS of a 5,000-page crawl
// fell by about 80 MB with no loss of throughput. The live set of a crawl stays near 40 MB at any
// site size; 1 GB leaves room for everything else the server does.
export const SERVER_NODE_FLAGS = ['--max-old-space-size=1024'];

/** NODE_OPTIONS with the server flags added, unless the operator already set a heap limit. */
export function withServerFlags(nodeOptions = '') {
  if (/--max-old-space-size/.test(nodeOptions)) return nodeOptions;
  return [nodeOptions, ...SERVER_NODE_FLAGS].filter(Boolean).join(' ');
}
