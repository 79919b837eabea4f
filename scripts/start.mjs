#!/usr/bin/env node
// `npm start`: build the app when no build exists, then serve it (PORT, default 3000).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { withServerFlags } from './node-flags.mjs';

const port = process.env.PORT || '3000';
const next = 'node_modules/.bin/next';

if (!existsSync('.next/BUILD_ID')) {
  console.log('sitewatch: no build found, building first (about a minute)...');
  const build = spawnSync(next, ['build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(next, ['start', '-p', port], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: withServerFlags(process.env.NODE_OPTIONS) },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
