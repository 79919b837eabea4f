import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The Vercel CLI's build output (`.vercel/output`, the Build Output API v3) read as a deployment
 * would be: its functions, each assembled from nothing but its own `.func` folder and the files its
 * `.vc-config.json` `filePathMap` ships, and started the way Vercel's Node runtime starts one.
 */

export interface VcConfig {
  handler: string;
  runtime: string;
  launcherType?: string;
  regions?: string[];
  memory?: number;
  maxDuration?: number;
  useWebApi?: boolean;
  /** Path inside the function -> path relative to the project root. */
  filePathMap?: Record<string, string>;
}

export interface OutputFunction {
  /** The function's own path under functions/, without `.func` (e.g. `api/inngest`). */
  name: string;
  dir: string;
  config: VcConfig;
  /** Every route this function serves: its own name and those of the aliases (symlinks) to it. */
  routes: string[];
}

/** The real functions of an output folder, with the routes each serves (aliases folded in). */
export function outputFunctions(outputDir: string): OutputFunction[] {
  const root = path.join(outputDir, 'functions');
  const byDir = new Map<string, OutputFunction>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      const isLink = lstatSync(full).isSymbolicLink();
      if (entry.endsWith('.func')) {
        const real = realpathSync(full);
        const route = `/${path.relative(root, full).slice(0, -'.func'.length)}`;
        let fn = byDir.get(real);
        if (!fn) {
          fn = {
            name: path.relative(root, real).slice(0, -'.func'.length),
            dir: real,
            config: JSON.parse(readFileSync(path.join(real, '.vc-config.json'), 'utf8')) as VcConfig,
            routes: [],
          };
          byDir.set(real, fn);
        }
        fn.routes.push(route);
      } else if (!isLink && statSync(full).isDirectory()) {
        walk(full);
      }
    }
  };
  walk(root);
  return [...byDir.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The function serving a route (`/api/inngest`, `/keys`), if any. */
export function functionFor(functions: OutputFunction[], route: string): OutputFunction | undefined {
  return functions.find((fn) => fn.routes.includes(route));
}

/**
 * Copies the function into `dest` from its `.func` folder and its `filePathMap` alone (what Vercel
 * uploads), then makes the copy read-only, as a deployed function's /var/task is. Answers its
 * uncompressed size in bytes.
 */
export function assembleFunction(fn: OutputFunction, projectRoot: string, dest: string): number {
  let bytes = 0;
  const copyFile = (from: string, to: string) => {
    mkdirSync(path.dirname(to), { recursive: true });
    // Shipped as the link it is (Next links external packages under .next/node_modules), as
    // Vercel uploads it; its target must be shipped too, or it dangles there as here.
    if (lstatSync(from).isSymbolicLink()) {
      symlinkSync(readlinkSync(from), to);
      return;
    }
    copyFileSync(from, to);
    bytes += statSync(to).size;
  };
  const copyTree = (from: string, to: string) => {
    for (const entry of readdirSync(from)) {
      const source = path.join(from, entry);
      if (statSync(source).isDirectory()) copyTree(source, path.join(to, entry));
      else copyFile(source, path.join(to, entry));
    }
  };
  copyTree(fn.dir, dest);
  for (const [inside, source] of Object.entries(fn.config.filePathMap ?? {})) {
    copyFile(path.join(projectRoot, source), path.join(dest, inside));
  }
  readOnly(dest);
  return bytes;
}

/** Files r--r--r--, folders r-xr-xr-x: anyone may read and run it, nobody may write into it. */
function readOnly(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) readOnly(full);
    else chmodSync(full, 0o444);
  }
  chmodSync(dir, 0o555);
}

/**
 * How Vercel's Node runtime serves a `launcherType: Nodejs` function: it loads the handler module
 * (`___next_launcher.cjs`, which chdirs into the function) and hands it each request. Written next
 * to the function, outside it, so the function's folder holds only what it ships.
 */
const SERVE_SCRIPT = `'use strict';
const http = require('node:http');
const path = require('node:path');
const [dir, handlerFile, port, webApi] = process.argv.slice(2);
const handler = require(path.join(dir, handlerFile));
// useWebApi functions (the proxy) take a web Request and answer a Response.
const asWebApi = async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) headers.set(name, [value].flat().join(', '));
  const url = 'https://' + req.headers.host + req.url;
  const response = await handler(new Request(url, { method: req.method, headers, body }));
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
};
http.createServer((req, res) => {
  Promise.resolve(webApi === 'web' ? asWebApi(req, res) : handler(req, res)).catch((error) => {
    console.error('serve: handler failed:', error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
}).listen(Number(port), '127.0.0.1', () => console.log('serve: listening'));
`;

export function writeServeScript(dir: string): string {
  const file = path.join(dir, 'serve-function.cjs');
  writeFileSync(file, SERVE_SCRIPT, { mode: 0o444 });
  return file;
}

export interface RunningFunction {
  url: string;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts an assembled function with exactly `env` (no variable of this process leaks in), as the
 * unprivileged `nobody` when this process is root (CI and the developers' machines run as root; a
 * deployed function cannot write its own files either).
 */
export async function startFunction(
  dir: string,
  config: VcConfig,
  serveScript: string,
  env: Record<string, string>,
): Promise<RunningFunction> {
  const port = await freePort();
  const node = process.execPath;
  const args = [serveScript, dir, config.handler, String(port), config.useWebApi ? 'web' : 'node'];
  const asRoot = process.getuid?.() === 0;
  const spawnedAt = performance.now();
  const child: ChildProcess = asRoot
    ? spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', node, ...args], {
        env: env as NodeJS.ProcessEnv,
        cwd: '/',
      })
    : spawn(node, args, { env: env as NodeJS.ProcessEnv, cwd: '/' });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    spawnedAt,
    output: () => printed,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Sizes in MB with one decimal, as the README's table gives them. */
export const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);
