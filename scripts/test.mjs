#!/usr/bin/env node
// `npm test`: the whole suite. Unit and integration tests (on TEST_DATABASE_URL's Postgres when set,
// then the database-heavy ones through Neon's driver and again on embedded PGlite, then the unit
// tests and the runtime-sensitive integration suites again on Postgres under Node 24), a fresh production
// build, the e2e suite in real Chromium, and the hosted path (Inngest's protocol) on that build.
// Ends with one summary line: "Summary: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = '.test-results';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args, env = process.env) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  console.log(`=== ${label}: exit ${r.status} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
  if (r.status !== 0) failures.push(label);
  return r.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  totals.skipped += stats?.skipped ?? 0;
}

const vitest = 'node_modules/.bin/vitest';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

run(onPostgres ? 'unit + integration (Postgres)' : 'unit + integration (PGlite)', vitest, [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}/vitest.json`,
]);
countVitest(`${out}/vitest.json`);

// The hosted path's driver: the suites that lean on transactions, advisory locks and SKIP LOCKED
// (frontier leases, round leases, outbox claims, the usage ledger, the per-tenant slot locks) again
// through Neon's serverless driver, over a WebSocket proxy in front of the same Postgres
// (tests/support/db.ts, TEST_DATABASE_DRIVER=neon). db-drivers.test.ts already ran both drivers above.
const neonSuites = [
  'crawl-lifecycle',
  'crawl-unprocessable',
  'crawl-fairness',
  'crawl-functions',
  'uptime-rounds',
  'uptime-monitors',
  'notify-delivery',
  'notify-uptime',
  'notify-fairness',
  'usage',
  'sites-billing',
].map((name) => `tests/integration/${name}.test.ts`);

if (onPostgres) {
  run(
    'integration (Neon driver through a WebSocket proxy)',
    vitest,
    [
      'run',
      '--project',
      'integration',
      ...neonSuites,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}/vitest-neon.json`,
    ],
    { ...process.env, TEST_DATABASE_DRIVER: 'neon' },
  );
  countVitest(`${out}/vitest-neon.json`);
}

// Embedded PGlite, the one-box trial's database, again for the suites where the database engine
// shows: the Neon list above (transactions, advisory locks, SKIP LOCKED, the ledger) and the
// database layer's own (drivers, the jsonb migration, PGlite's worker thread, the write-heavy crawl
// and report paths, the rollups). Every other suite moves rows between a route and the database in
// ways both engines (Postgres 17 compiled to WebAssembly, and Postgres) answer alike, and ran above
// on Postgres; the e2e suite below runs the whole product on PGlite (`npm start` on its embedded
// defaults). Each PGlite file costs about 9 s of setup (WebAssembly, initdb, migrations): the whole
// integration suite on it took 980 s of CI's 45 minutes.
const pgliteSuites = [
  ...neonSuites,
  ...[
    'db-drivers',
    'db-json-columns',
    'db-pglite-thread',
    'crawl',
    'crawl-views',
    'a11y-store',
    'uptime-rollup',
    'status-cache',
  ].map((name) => `tests/integration/${name}.test.ts`),
];

if (onPostgres) {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  run(
    'integration, database-heavy suites (embedded PGlite)',
    vitest,
    [
      'run',
      '--project',
      'integration',
      ...pgliteSuites,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}/vitest-pglite.json`,
    ],
    env,
  );
  countVitest(`${out}/vitest-pglite.json`);
}

// The hosted deployment runs Node 24 (package.json's engines; README "Quick start"): the unit tests
// and the integration suites where the Node version shows run once more on it, against the Postgres
// server, the database a deployment uses. What changes between Node majors is the runtime under our
// code: fetch and undici (every outbound request: lib/net, the crawler and its hostile pages, the
// probes, webhooks), WebCrypto and node:crypto (sessions, secrets at rest), and the database
// drivers. Suites that only move rows between a route and Postgres behave the same on both and ran
// above. The Vercel stage below boots every function on Node 24 as well, Chromium's PDF and the four
// region probes among them. SKIP_NODE24=1 leaves the stage out.
const node24Suites = [
  'db-drivers',
  'hosted-boot',
  'auth',
  'crawl',
  'crawl-hostile-page',
  'uptime-runner',
  'notify-delivery',
  'notify-secrets',
].map((name) => `tests/integration/${name}.test.ts`);

if (onPostgres && process.env.SKIP_NODE24 !== '1') {
  run('unit + runtime-sensitive integration (Postgres, Node 24)', 'node', [
    'scripts/node24.mjs',
    vitest,
    'run',
    'tests/unit',
    ...node24Suites,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}/vitest-node24.json`,
  ]);
  countVitest(`${out}/vitest-node24.json`);
}

if (process.env.SKIP_E2E === '1') {
  console.log('\n=== e2e skipped (SKIP_E2E=1) ===');
} else if (run('production build', 'node_modules/.bin/next', ['build'])) {
  run('e2e (Chromium)', 'node_modules/.bin/playwright', ['test'], {
    ...process.env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/e2e.json`,
  });
  countPlaywright(`${out}/e2e.json`);
  // The hosted path on the same build: Inngest's protocol driven by a local executor against
  // `next start` on a Postgres database (skipped, saying so, without TEST_DATABASE_URL).
  run('hosted: Inngest path (production build)', vitest, [
    'run',
    '--config',
    'vitest.hosted.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}/vitest-hosted.json`,
  ]);
  countVitest(`${out}/vitest-hosted.json`);
}

// Last: the Vercel CLI's build writes its own .next (and .vercel/output), which the e2e and hosted
// stages above run against. It deploys against a real Postgres database (TEST_DATABASE_URL).
if (process.env.SKIP_VERCEL === '1') {
  console.log('\n=== Vercel bundle skipped (SKIP_VERCEL=1) ===');
} else if (!onPostgres) {
  console.log(
    '\n=== Vercel bundle skipped: it deploys against a real Postgres database (TEST_DATABASE_URL) ===',
  );
} else {
  // On Node 24, the Node Vercel runs the functions on (package.json's engines): the CLI's build and
  // every booted function run on it (node24.mjs puts it first on the PATH; the test starts each
  // function with its own process.execPath).
  run('Vercel bundle (vercel build, every function booted from its own files, Node 24)', 'node', [
    'scripts/node24.mjs',
    vitest,
    'run',
    '--config',
    'vitest.vercel.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}/vitest-vercel.json`,
  ]);
  countVitest(`${out}/vitest-vercel.json`);
}

if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
console.log(`\nSummary: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
