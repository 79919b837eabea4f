// How the server's Node process is started (scripts/start.mjs). The crawl benchmark's processes
// start the same way (tests/bench/crawl.bench.ts), so what is measured is what runs.
//
// Each setting below was measured on a 5,000-page crawl with embedded PGlite (npm run bench:crawl,
// BENCH_VERBOSE=1 prints where the memory is):
//
// --max-old-space-size=1024  Node's default heap limit is a share of the machine's memory, several
//   GB, and V8 grows the heap lazily toward it; a crawl allocates fast (parse5 makes about 60 times a
//   page's size in short-lived objects), so the heap reached 185 MB holding 40 MB of live data. With
//   a limit sized to the server it collects sooner: about 80 MB lower at the same speed.
// --liftoff-only  PGlite is Postgres compiled to WebAssembly. V8 first compiles it with Liftoff, its
//   baseline compiler, then recompiles hot functions with TurboFan on background threads; those
//   compilations take about 50 MB of C++ heap, which the allocator keeps after they end. Without the
//   second tier the database thread spends about 0.3 s more CPU per 5,000 pages and the background
//   threads about as much less: the same throughput, 40 to 50 MB less memory.
export const SERVER_NODE_FLAGS = ['--max-old-space-size=1024', '--liftoff-only'];

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
