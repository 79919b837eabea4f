import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The Vercel build output booted function by function (tests/vercel; `npm run test:vercel`, and
 * `npm test`'s last stage: its build replaces .next, which the e2e and hosted stages run against).
 */
export default defineConfig({
  resolve: { alias: { '@': root.replace(/\/$/, '') } },
  test: {
    include: ['tests/vercel/**/*.test.ts'],
    silent: 'passed-only',
    // One function at a time on the shared machine.
    maxWorkers: 1,
    testTimeout: 120_000,
    // The Vercel CLI's build runs in beforeAll.
    hookTimeout: 40 * 60_000,
  },
});
