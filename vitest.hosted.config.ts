import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Tests of the hosted path against the production build (`npm test` runs them after `next build`):
 * outside the unit and integration projects, which run before any build exists.
 */
export default defineConfig({
  resolve: { alias: { '@': root.replace(/\/$/, '') } },
  test: {
    include: ['tests/hosted/**/*.test.ts'],
    silent: 'passed-only',
    // One app server at a time on the shared machine.
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
