import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@': root.replace(/\/$/, '') } },
  test: {
    // Mail and job logs are useful when a test fails and noise when it passes.
    silent: 'passed-only',
    // Each integration file gets its own database; two workers fit the 2-core machines.
    maxWorkers: 2,
    env: { NODE_ENV: 'test', ALLOW_PRIVATE_NETWORK: 'true', EMBEDDED_RUNNER: 'false' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
