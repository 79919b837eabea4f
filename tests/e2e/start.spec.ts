import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * `npm start` with a setting the server refuses must stop with a message naming the setting, not
 * print "Ready" and answer every page with a 500. Runs the same built app the other e2e tests use.
 */
test('a refused setting stops the server with a message naming it', async () => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(Number(process.env.E2E_PORT ?? 3100) + 50),
      PGLITE_DIR: join(mkdtempSync(join(tmpdir(), 'sitewatch-refused-')), 'pglite'),
      ALLOW_PRIVATE_NETWORK: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 45_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  expect(exitCode, `the server kept running; its output ended:\n${output.slice(-2_000)}`).not.toBeNull();
  expect(exitCode).not.toBe(0);
  expect(output).toContain('ALLOW_PRIVATE_NETWORK');
  expect(output).toContain('cannot start');
});
