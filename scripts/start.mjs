#!/usr/bin/env node
// `npm start`: build the app when no build exists, then serve it (PORT, default 3000).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { serverEnv, serverNodeArgs } from './node-flags.mjs';

const port = process.env.PORT || '3000';
const next = 'node_modules/.bin/next';

if (!existsSync('.next/BUILD_ID')) {
  console.log('sitewatch: no build found, building first (about a minute)...');
  const build = spawnSync(next, ['build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// `next start` serves from the process it runs in, so that process is started through node with the
// server's flags on its command line: some are V8 flags, which NODE_OPTIONS does not accept.
const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
const server = spawn(
  process.execPath,
  [...serverNodeArgs(process.env.NODE_OPTIONS), nextCli, 'start', '-p', port],
  { stdio: 'inherit', env: serverEnv(process.env) },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
