#!/usr/bin/env node
// Runs a command under Node 24, the Node a hosted deployment runs (Vercel builds and runs with the
// newest major package.json's `engines` allows: 24). Usage:
//
//   node scripts/node24.mjs <command> [args...]      or      npm run node24 -- <command> [args...]
//   node scripts/node24.mjs node_modules/.bin/vitest run --project integration
//
// The command is started with Node 24's folder first on its PATH, so `node` and every
// `#!/usr/bin/env node` script it starts (vitest and its workers, next, npx) run on Node 24.
//
// Node 24 is the npm registry's `node-<platform>-<arch>` package (the official binary), installed
// once at the pinned version into .node24/ (git-ignored). It is deliberately not a devDependency:
// the package's `bin` is named `node`, so npm would link it into node_modules/.bin, which npm puts
// first on the PATH of every script, and `npm start` and `npm test` would silently run on Node 24
// instead of the machine's Node (verified: `npm run` then reported v24). Only the linux-x64 build
// is exercised here (CI and the development machines).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE24_VERSION = '24.21.0';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.node24');
const platform = process.platform === 'win32' ? 'win' : process.platform;
const packageName = `node-${platform}-${process.arch}`;
const binDir = path.join(prefix, 'node_modules', packageName, 'bin');
const binary = path.join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');

/** The installed binary's version, or null when there is none (or it does not run). */
function installedVersion() {
  if (!existsSync(binary)) return null;
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : null;
}

/** The folder holding Node 24's `node`: this process's own when it already is 24. */
function node24Dir() {
  if (process.versions.node.split('.')[0] === '24') return path.dirname(process.execPath);
  if (installedVersion() !== NODE24_VERSION) {
    console.error(
      `node24: installing ${packageName}@${NODE24_VERSION} from the npm registry into .node24/ (once)`,
    );
    const r = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        `${packageName}@${NODE24_VERSION}`,
      ],
      { stdio: 'inherit' },
    );
    const found = installedVersion();
    if (r.status !== 0 || found !== NODE24_VERSION) {
      console.error(
        `node24: could not install Node ${NODE24_VERSION} (${packageName}); found ${found ?? 'none'}`,
      );
      process.exit(1);
    }
  }
  return binDir;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/node24.mjs <command> [args...]');
  process.exit(2);
}
const dir = node24Dir();
const env = { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}` };
// `node` names Node 24 itself, whatever a shell or npm put first on this process's own PATH.
const resolved = command === 'node' ? path.join(dir, path.basename(binary)) : command;
const result = spawnSync(resolved, args, { stdio: 'inherit', env });
if (result.error) {
  console.error(`node24: cannot run ${command}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
