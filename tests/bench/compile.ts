import { fileURLToPath } from 'node:url';

/**
 * A benchmark's own file compiled ahead of time for its child processes, as the server runs Next's
 * compiled build: tsx's on-the-fly compiler runs its hooks on a thread of its own that costs about
 * 35 MB of RSS, which no server carries. The bundle sits under node_modules so bare imports resolve
 * as usual. `entry` is the benchmark file (`fileURLToPath(import.meta.url)`), `name` its bundle's.
 */
export async function compileBench(entry: string, name: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = fileURLToPath(
    new URL(`../../node_modules/.cache/sitewatch-bench/${name}.mjs`, import.meta.url),
  );
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
