import { availableParallelism } from 'node:os';

// How the server's Node process is started (scripts/start.mjs). The crawl benchmark's processes
// start the same way (tests/bench/crawl.bench.ts), so what is measured is what runs.
//
// Each setting below was measured on a 5,000-page crawl with embedded PGlite (npm run bench:crawl,
// BENCH_VERBOSE=1 prints where the memory is):
//
// --max-old-space-size=512  Node's default heap limit is a share of the machine's memory, several GB.
//   V8 lets the old generation grow to a multiple of what survived the last full collection, and
//   the multiple is larger the higher the limit. With a 1 GB limit the heap swung up to 175 MB while
//   holding 45 to 60 MB of live data; with 512 MB it stayed near 100 MB at the same throughput. (That
//   was measured while every parsed page still reached the old generation, see lib/html/document.ts;
//   the limit is kept as the ceiling.) 512 MB is still several times what the server holds at its
//   busiest.
// --wasm-num-compilation-tasks=1  PGlite is Postgres compiled to WebAssembly. V8 recompiles its hot
//   functions with TurboFan on background threads, as many at once as it has threads, and each
//   compilation's working memory stays in the C++ allocator's per-thread arenas after it ends. One
//   task at a time halves that (about 25 MB); the optimized code arrives a little later, once.
// --v8-pool-size  Node starts 4 threads for V8's background work (garbage collection, optimizing
//   compilation) whatever the machine. The main thread keeps a core busy, so the pool gets the
//   others: at least one, at most Node's 4. On the 2-core development machine that is 1, and a
//   5,000-page crawl took 10 to 20% less CPU and time than with 4 threads contending for 2 cores.
const poolSize = Math.min(4, Math.max(1, availableParallelism() - 1));

export const SERVER_NODE_FLAGS = [
  '--max-old-space-size=512',
  '--wasm-num-compilation-tasks=1',
  `--v8-pool-size=${poolSize}`,
];

// MALLOC_MMAP_THRESHOLD_  glibc raises its mmap threshold as the program frees large blocks, after
//   which blocks of up to 32 MB come from its arenas and stay there once freed (the WebAssembly
//   module's bytes, PGlite's file system bundle, response buffers). A fixed 128 KB threshold gives
//   every large block its own mapping, returned to the system when freed: 20 to 40 MB less.
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

const flagName = (flag) => flag.split('=')[0];

/** The server's Node flags, minus any the operator already gave in NODE_OPTIONS (theirs win). */
export function serverNodeArgs(nodeOptions = '') {
  const given = new Set(nodeOptions.split(/\s+/).filter(Boolean).map(flagName));
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/** The environment with the server's settings added where the operator did not set them. */
export function serverEnv(env = process.env) {
  return { ...SERVER_ENV, ...env };
}
