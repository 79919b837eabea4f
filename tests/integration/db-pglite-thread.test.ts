import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from '@/lib/db/pglite-thread';

// The embedded database on its own thread, exercised directly: what drizzle relies on (rows,
// fields, parsers, errors with their SQLSTATE, transactions) must behave as PGlite itself does.
describe('PGliteThread', () => {
  let db: PGliteThread;

  beforeAll(async () => {
    db = await PGliteThread.open('memory://');
    await db.query('create table t (id int primary key, note text, at timestamp)');
  });
  afterAll(async () => {
    await db.close();
  });

  it('answers rows as objects or arrays, with their fields', async () => {
    await db.query('insert into t (id, note) values ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    const objects = await db.query<{ id: number; note: string }>('select id, note from t order by id');
    expect(objects.rows).toEqual([
      { id: 1, note: 'one' },
      { id: 2, note: 'two' },
    ]);
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'note']);
    const arrays = await db.query<unknown[]>('select id, note from t order by id', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it('runs the caller’s parsers on this thread over the raw text of their types', async () => {
    await db.query(`update t set at = '2026-01-02 03:04:05' where id = 1`);
    const TIMESTAMP = 1114;
    const { rows } = await db.query<{ at: unknown }>('select at from t where id = 1', [], {
      parsers: { [TIMESTAMP]: (value) => `raw:${value}` },
    });
    expect(rows[0]?.at).toBe('raw:2026-01-02 03:04:05');
  });

  it('rejects with the Postgres error fields intact', async () => {
    const error = await db.query('insert into t (id) values (1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((error as Error).message).toMatch(/duplicate key/);
  });

  it('commits a transaction, and rolls it back when the callback throws or asks to', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (10, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (11, $1)', ['thrown']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (12, $1)', ['rolled back']);
      await tx.rollback();
    });
    const { rows } = await db.query<{ id: number }>('select id from t where id >= 10 order by id');
    expect(rows.map((r) => r.id)).toEqual([10]);
  });

  it('keeps queries from outside a transaction out of it until it ends', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (20, $1)', ['inside']);
      await gate;
      await tx.rollback();
    });
    // Issued while the transaction is open: it must not see (or join) the uncommitted row.
    const outside = db.query<{ n: number }>('select count(*)::int as n from t where id = 20');
    await new Promise((r) => setTimeout(r, 50));
    release();
    await transaction;
    expect((await outside).rows[0]?.n).toBe(0);
  });

  it('fails fast, instead of hanging, once the thread has died', async () => {
    const other = await PGliteThread.open('memory://');
    // Stands in for a crash of the WebAssembly Postgres: the thread is gone.
    await (other as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate();
    await expect(other.query('select 1')).rejects.toThrow(/database thread exited/);
    await expect(other.transaction(async () => 1)).rejects.toThrow(/database thread exited/);
  });

  it('creates a data folder on first open and finds its data there on the next', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-pglite-'));
    try {
      const dataDir = path.join(dir, 'pglite');
      const first = await PGliteThread.open(dataDir);
      await first.query('create table kept (note text)');
      await first.query("insert into kept values ('still here')");
      await first.close();
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      const second = await PGliteThread.open(dataDir);
      const { rows } = await second.query<{ note: string }>('select note from kept');
      await second.close();
      expect(rows).toEqual([{ note: 'still here' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses queries once closed', async () => {
    const other = await PGliteThread.open('memory://');
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/closed/);
  });
});
