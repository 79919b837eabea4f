import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import chromium from '@sparticuz/chromium';

/**
 * e2e against the built app, served by `npm start` on the embedded defaults (PGlite in a fresh
 * folder, local mail outbox). The server's output is teed to a log file: the tests read the
 * emailed sign-in codes from the outbox lines there, as a person would read their inbox.
 *
 * Playwright loads this file in the runner and again in each worker; the run folder is created once
 * and handed to the workers through the environment they inherit.
 */
process.env.SITEWATCH_E2E_DIR ??= mkdtempSync(join(tmpdir(), 'sitewatch-e2e-'));
const runDir = process.env.SITEWATCH_E2E_DIR;
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;

const executablePath = process.env.CHROMIUM_PATH || (await chromium.executablePath());
// @sparticuz/chromium's flags are tuned for one page per Lambda; --single-process makes a browser
// with several contexts (signed-in owner, signed-out invitee) fall over, and --disable-web-security
// would hide the same-origin rules the dashboard lives under.
const launchArgs = chromium.args.filter((a) => a !== '--single-process' && a !== '--disable-web-security');

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: join(runDir, 'results'),
  // One server, one database, one story: tests build on each other's state in order.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // `npm test` reads the JSON report for its summary line.
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? join(runDir, 'report.json') }],
  ],
  use: {
    baseURL,
    launchOptions: { executablePath, args: launchArgs, headless: true },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // better-auth rate-limits sign-in codes per client address; each person in the story signs in
    // from an address of their own (documentation range 203.0.113.0/24), as real people would. The
    // browser stands in for a proxy on loopback, which the server trusts (TRUSTED_PROXY below).
    {
      name: 'setup',
      testMatch: /auth\.setup\.ts/,
      use: { extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.1' } },
    },
    {
      name: 'dashboard',
      testMatch: /.*\.spec\.ts/,
      dependencies: ['setup'],
      use: {
        storageState: join(runDir, 'owner.json'),
        extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.2' },
      },
    },
  ],
  webServer: {
    command: `npm start 2>&1 | tee ${JSON.stringify(join(runDir, 'server.log'))}`,
    url: `${baseURL}/sign-in`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      APP_URL: baseURL,
      PGLITE_DIR: join(runDir, 'pglite'),
      TRUSTED_PROXY: '127.0.0.1,::1',
      // Loopback addresses the server may reach, as a self-hosted server names its private hosts:
      // focus.spec.ts serves a small site to crawl, scan and probe on 127.0.0.7, honest-figures.spec.ts
      // one on 127.0.0.5, figures.spec.ts one to scan and seo-pages.spec.ts a 130-page one to crawl on
      // 127.0.0.3 (each on its own port), webhook-health.spec.ts a failing webhook receiver and monitor
      // target on 127.0.0.9, truth.spec.ts a site to crawl and a monitor target on 127.0.0.11,
      // status-incidents.spec.ts a healthy monitored API on 127.0.0.13; every other private address
      // (127.0.0.1 among them) stays refused.
      PRIVATE_NETWORKS: '127.0.0.7,127.0.0.5,127.0.0.3,127.0.0.9,127.0.0.11,127.0.0.13',
    },
  },
});
