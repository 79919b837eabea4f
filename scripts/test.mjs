#!/usr/bin/env node
// `npm test`: the whole suite. Unit and integration tests (on TEST_DATABASE_URL's Postgres when set,
// and then the integration tests again on embedded PGlite), a fresh production build, and the e2e
// suite in real Chromium. Ends with one summary line: "Summary: N passed, N failed, N skipped".
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

if (onPostgres) {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  run(
    'integration (embedded PGlite)',
    vitest,
    [
      'run',
      '--project',
      'integration',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}/vitest-pglite.json`,
    ],
    env,
  );
  countVitest(`${out}/vitest-pglite.json`);
}

if (process.env.SKIP_E2E === '1') {
  console.log('\n=== e2e skipped (SKIP_E2E=1) ===');
} else if (run('production build', 'node_modules/.bin/next', ['build'])) {
  run('e2e (Chromium)', 'node_modules/.bin/playwright', ['test'], {
    ...process.env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/e2e.json`,
  });
  countPlaywright(`${out}/e2e.json`);
}

if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
console.log(`\nSummary: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
