import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Embedded PGlite on a thread of its own. PGlite is Postgres compiled to WebAssembly and runs on
 * whichever thread calls it: on the main thread, every query's CPU (parsing, planning, index
 * maintenance, the file writes of its virtual file system) stalls request handling and the
 * crawler's network and HTML work. On a worker thread the database works while the main thread
 * does, as a Postgres server process would.
 *
 * `PGliteThread` offers the part of PGlite's client that drizzle's PGlite driver uses (`query`,
 * `exec`, `transaction`, `close`), so `drizzle({ client })` works unchanged.
 *
 * Parsers cross the thread boundary as type ids: the worker returns those types' raw text and the
 * caller's own parser functions run here, on the main thread.
 */

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

export interface Field {
  name: string;
  dataTypeID: number;
}

export interface Results<T = Record<string, unknown>> {
  rows: T[];
  fields: Field[];
  affectedRows?: number;
}

export interface Transaction {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
}

type Request =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      rawTypes: number[];
    }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'close' };

type Reply = { id: number; result?: unknown; error?: SerializedError };
type SerializedError = { name: string; message: string; stack?: string; fields: Record<string, unknown> };

/** The thread's code (see the module's header for why it is JavaScript), from the project folder. */
const WORKER_MODULE = 'lib/db/pglite-worker.mjs';

export class PGliteThread {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  /** Transactions are exclusive: queries from outside wait until the holder commits or rolls back. */
  private lock: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set when the thread died: every later request fails with it instead of waiting forever. */
  private dead: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => this.failAll(new Error(`the database thread exited (code ${code})`)));
  }

  /**
   * Starts the thread and opens the database in it; resolves once PGlite is ready.
   *
   * A data folder that does not exist yet is first created by a thread of its own, which then
   * exits: initdb grows the WebAssembly memory by hundreds of MB, and that memory is only ever
   * given back with the thread that holds it, so a server's first boot would otherwise keep it.
   */
  static async open(dataDir: string, options: { postgresqlconf?: string[] } = {}): Promise<PGliteThread> {
    if (!dataDir.startsWith('memory://') && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      await (await PGliteThread.start(dataDir, options)).close();
    }
    return PGliteThread.start(dataDir, options);
  }

  private static async start(dataDir: string, options: { postgresqlconf?: string[] }): Promise<PGliteThread> {
    // Resolved from the project's own node_modules at run time, so the same code works under Next's
    // bundled server, tsx and vitest (a bundler never sees the worker's import).
    const modulePath = createRequire(path.join(process.cwd(), 'package.json')).resolve(
      '@electric-sql/pglite',
    );
    const worker = new Worker(path.join(process.cwd(), WORKER_MODULE), {
      workerData: { modulePath, dataDir, options },
      // Only this thread's own flags: the parent's loaders (tsx, vitest) have nothing to do here.
      execArgv: [],
      name: 'pglite',
      // The thread's garbage is short-lived protocol buffers and result rows: a small young
      // generation keeps it about 30 MB smaller at no measurable cost in throughput.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    const client = new PGliteThread(worker);
    await new Promise<void>((resolve, reject) => {
      client.pending.set(0, { resolve: () => resolve(), reject });
    });
    return client;
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options: QueryOptions = {},
  ): Promise<Results<T>> {
    return this.exclusive(() => this.send<T>(sql, params, options));
  }

  exec(sql: string): Promise<Results[]> {
    return this.exclusive(() => this.sendExec(sql));
  }

  /** BEGIN … COMMIT around `callback`, ROLLBACK when it throws or calls `rollback()`. */
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      let open = true;
      const ensureOpen = () => {
        if (!open) throw new Error('Transaction is closed');
      };
      const tx: Transaction = {
        query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
          ensureOpen();
          return this.send<R>(sql, params, options);
        },
        exec: (sql: string) => {
          ensureOpen();
          return this.sendExec(sql);
        },
        rollback: async () => {
          ensureOpen();
          await this.send('ROLLBACK', [], {});
          open = false;
        },
      };
      await this.send('BEGIN', [], {});
      try {
        const result = await callback(tx);
        if (open) await this.send('COMMIT', [], {});
        return result;
      } catch (error) {
        if (open) await this.send('ROLLBACK', [], {}).catch(() => {});
        throw error;
      } finally {
        open = false;
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.exclusive(() => this.request({ id: 0, op: 'close' })).catch(() => {});
    await this.worker.terminate();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work);
    this.lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async send<T>(sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const parsers = options.parsers ?? {};
    const rawTypes = Object.keys(parsers).map(Number);
    const result = (await this.request({
      id: 0,
      op: 'query',
      sql,
      params,
      rowMode: options.rowMode,
      rawTypes,
    })) as Results<T>;
    if (rawTypes.length > 0) applyParsers(result, parsers, options.rowMode ?? 'object');
    return result;
  }

  private sendExec(sql: string): Promise<Results[]> {
    return this.request({ id: 0, op: 'exec', sql }) as Promise<Results[]>;
  }

  private request(message: Request): Promise<unknown> {
    if (this.closed && message.op !== 'close') return Promise.reject(new Error('the database is closed'));
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settle(reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (reply.error) waiter.reject(toError(reply.error));
    else waiter.resolve(reply.result);
  }

  private failAll(error: Error): void {
    if (!this.closed && !this.dead) console.error(`database: ${error.message}`);
    this.dead ??= error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

/** Runs the caller's parsers over the raw text the worker returned for their types. */
function applyParsers<T>(
  result: Results<T>,
  parsers: Record<number, (value: string, typeId: number) => unknown>,
  rowMode: 'array' | 'object',
): void {
  result.fields.forEach((field, column) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows) {
      // A row is an object or, in array mode, an array: either is read and written by key.
      const key = rowMode === 'array' ? column : field.name;
      const value: unknown = Reflect.get(row as object, key);
      if (typeof value === 'string') Reflect.set(row as object, key, parse(value, field.dataTypeID));
    }
  });
}

/** The worker's error rebuilt with its Postgres fields (code, detail, constraint, …) intact. */
function toError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
