/**
 * Page parsing benchmark: the crawler's per-page work (parse, extract links, extract SEO facts) on
 * the 5,000 pages of the crawl benchmark's synthetic site, with the document parsed by
 * `cheerio.load` and by `parseHtml` (lib/html/document.ts), each in a fresh process with the
 * server's flags. It prints time per page and the full (mark-compact) collections V8 ran, the
 * figure that shows whether parsed trees die young.
 *
 *   npx tsx tests/bench/parse.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load } from 'cheerio';
import { extractLinks } from '@/lib/crawl/engine/extract';
import { type Document, parseHtml } from '@/lib/html/document';
import { extractSeoFacts } from '@/lib/seo/extract';
import { serverEnv, serverNodeArgs } from '../../scripts/node-flags.mjs';
import { syntheticPage } from '../support/test-site';
import { machineLine } from './machine';

const PAGES = 5_000;
const ROUNDS = 4;
const VARIANTS = ['cheerio.load', 'parseHtml'] as const;
type Variant = (typeof VARIANTS)[number];

interface Result {
  variant: Variant;
  msPerPage: number;
  fullGcs: number;
}

async function measure(variant: Variant): Promise<Result> {
  const bodies = Array.from({ length: PAGES }, (_, i) => Buffer.from(syntheticPage(i, { pages: PAGES })));
  // The root `cheerio.load` parsed, as the crawler used it before parseHtml.
  const viaCheerio = (html: string): Document => {
    const root = load(html).root()[0];
    if (!root) throw new Error('cheerio returned no root');
    return root;
  };
  const parse = variant === 'parseHtml' ? parseHtml : viaCheerio;
  // What the engine keeps of a page until its batch is written: links and SEO facts, not the tree.
  let kept: unknown[] = [];
  const crawlPage = (i: number) => {
    const url = `http://127.0.0.1/p/${i}`;
    const document = parse((bodies[i] as Buffer).toString('utf8'));
    kept.push(extractLinks(document, url), extractSeoFacts(document, url));
    if (kept.length >= 500) kept = [];
  };

  for (let i = 0; i < PAGES; i++) crawlPage(i); // warm-up: JIT-compiled, as in a running server
  let fullGcs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullGcs++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) for (let i = 0; i < PAGES; i++) crawlPage(i);
  const elapsed = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100)); // the observer delivers asynchronously
  observer.disconnect();
  return { variant, msPerPage: elapsed / (ROUNDS * PAGES), fullGcs };
}

function main(): void {
  const variant = process.argv[process.argv.indexOf('--variant') + 1] as Variant | undefined;
  if (process.argv.includes('--variant') && variant) {
    void measure(variant).then((result) => console.log(JSON.stringify(result)));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const results = VARIANTS.map((name) => {
    const child = spawnSync(
      process.execPath,
      [...serverNodeArgs(process.env.NODE_OPTIONS), '--import', 'tsx', self, '--variant', name],
      { env: serverEnv(), encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`${name} failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop() as string) as Result;
  });
  console.log(machineLine());
  console.log(`per-page parse and extraction, ${PAGES.toLocaleString('en')} synthetic pages x ${ROUNDS}\n`);
  console.log('document via      µs/page  full GCs');
  for (const r of results)
    console.log(
      `${r.variant.padEnd(16)} ${(r.msPerPage * 1000).toFixed(0).padStart(8)}  ${String(r.fullGcs).padStart(8)}`,
    );
  const [theirs, ours] = results as [Result, Result];
  console.log(`ratio (speed)    ${(theirs.msPerPage / ours.msPerPage).toFixed(2).padStart(7)}x`);
}

main();
