// @ts-check
/**
 * The PGlite thread's side of `PGliteThread` (pglite-thread.ts): opens the database, then answers
 * the main thread's query, exec and close requests one message at a time.
 *
 * Plain JavaScript, loaded from the project folder at run time: a worker thread runs a file as
 * Node finds it, and neither Next's bundled server nor tsx nor vitest would hand a TypeScript
 * module to it. `// @ts-check` and the JSDoc types keep it under typecheck and lint all the same.
 */

import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

/** @typedef {{ modulePath: string, dataDir: string, options: Record<string, unknown> }} WorkerData */
/**
 * @typedef {{ id: number, op: 'query', sql: string, params: unknown[], rowMode?: 'array' | 'object', rawTypes: number[] }
 *   | { id: number, op: 'exec', sql: string }
 *   | { id: number, op: 'close' }} Request
 */
/** @typedef {{ rows: unknown[], fields: unknown[], affectedRows?: number }} Results */

/** Values of these types come back as their raw text; the caller's parsers run on its own thread. */
const raw = (/** @type {string} */ value) => value;

/**
 * An error as a message can carry it: name, message, stack and every field that can be cloned
 * (Postgres' code, detail, constraint, ...).
 * @param {unknown} error
 */
function serialize(error) {
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error ?? {})) {
    if (value === undefined || typeof value === 'function') continue;
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // Not cloneable (a socket, a class instance with handles): left out of the copy.
    }
  }
  const e = /** @type {Partial<Error>} */ (error ?? {});
  return { name: e.name ?? 'Error', message: e.message ?? String(error), stack: e.stack, fields };
}

/** @param {Results} r */
const plain = (r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows });

/**
 * @param {import('@electric-sql/pglite').PGlite} db
 * @param {Request} request
 */
async function answer(db, request) {
  if (request.op === 'query') {
    /** @type {Record<number, typeof raw>} */
    const parsers = {};
    for (const type of request.rawTypes) parsers[type] = raw;
    return plain(await db.query(request.sql, request.params, { parsers, rowMode: request.rowMode }));
  }
  if (request.op === 'exec') return (await db.exec(request.sql)).map(plain);
  await db.close();
  return null;
}

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread (see PGliteThread)');
const data = /** @type {WorkerData} */ (workerData);

/** @type {import('@electric-sql/pglite').PGlite} */
let db;
try {
  // Next's bundler compiles this file into a worker chunk of its own; turbopackIgnore leaves this
  // import to Node, since the module's path is only known at run time.
  const { PGlite } = await import(/* turbopackIgnore: true */ pathToFileURL(data.modulePath).href);
  db = await PGlite.create(data.dataDir, data.options);
} catch (error) {
  port.postMessage({ id: 0, error: serialize(error) });
  throw error;
}
port.postMessage({ id: 0, result: true });
port.on('message', async (/** @type {Request} */ request) => {
  try {
    port.postMessage({ id: request.id, result: await answer(db, request) });
  } catch (error) {
    port.postMessage({ id: request.id, error: serialize(error) });
  }
});
