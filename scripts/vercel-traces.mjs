#!/usr/bin/env node
// Part of vercel.json's buildCommand, after `next build`: corrects the build's file traces
// (.next/server/**/*.nft.json), from which the Vercel builder decides what each function ships.
// `next start` never reads them, so the one-box server is untouched. tests/vercel/bundle.test.ts
// boots every function of the result from its own files.
//
// 1. What no function opens on Vercel leaves every trace: PGlite and its worker (a deployment has
//    DATABASE_URL) and the migrations (the build applies them). The instrumentation hook's trace
//    matters most: it holds the one-box start-up (jobs/boot.ts imports it lazily) and the builder
//    adds it to every function. Next's outputFileTracingExcludes cannot do this: it leaves the hook's
//    trace alone, and Turbopack ignores a negated route pattern (point 2).
// 2. playwright-core and @sparticuz/chromium (loaded at the first Chromium launch only,
//    lib/a11y/engine/browser.ts) leave every trace but the routes that launch it (BROWSER_TRACES).
// 3. The proxy's (middleware) trace lacks .next/package.json ({"type": "commonjs"}): under this
//    package's "type": "module" Node then loads the CommonJS middleware bundle as an ES module, and
//    the function every /v1 request passes fails at its first request ("require is not defined").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const server = '.next/server';

/** Never opened on Vercel: folders (ending in /) and files, from the project root. */
const NEVER_SHIPPED = ['node_modules/@electric-sql/pglite/', 'drizzle/', 'lib/db/pglite-worker.mjs'];
const BROWSER_ONLY = ['node_modules/playwright-core/', 'node_modules/@sparticuz/chromium/'];
/** The traces of the routes that launch Chromium (next.config.ts's BROWSER_ROUTES). */
const BROWSER_TRACES = [
  'app/api/inngest/route.js.nft.json',
  'app/api/v1/sites/[id]/reports/monthly/route.js.nft.json',
];

function traces(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return traces(full);
    return entry.name.endsWith('.nft.json') ? [full] : [];
  });
}

let shipped = 0;
let dropped = 0;
for (const file of traces(server)) {
  const relative = path.relative(server, file);
  const unwanted = BROWSER_TRACES.includes(relative) ? NEVER_SHIPPED : [...NEVER_SHIPPED, ...BROWSER_ONLY];
  const trace = JSON.parse(readFileSync(file, 'utf8'));
  const kept = trace.files.filter((entry) => {
    const fromRoot = path.relative('.', path.resolve(path.dirname(file), entry));
    // Next also links each external package as .next/node_modules/<name>-<hash>.
    const linked = fromRoot.replace(/^\.next\/(node_modules\/.+?)-[0-9a-f]{16}$/, '$1/');
    return !unwanted.some((prefix) => fromRoot.startsWith(prefix) || linked === prefix);
  });
  if (relative === 'middleware.js.nft.json') {
    const packageJson = path.relative(path.dirname(file), '.next/package.json');
    if (!kept.includes(packageJson)) kept.push(packageJson);
  }
  dropped += trace.files.length - kept.length;
  shipped += kept.length;
  trace.files = kept;
  writeFileSync(file, JSON.stringify(trace));
}
console.log(`vercel-traces: ${dropped} entries dropped, ${shipped} kept`);
