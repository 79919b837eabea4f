import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type DbHandle, openDatabase } from '@/lib/db/client';
import { migrate } from '@/lib/db/migrate';
import { queryRows } from '@/lib/db/rows';
import { adminQuery, withDatabase } from '../support/db';
import { addressOfUrl, type NeonWsProxy, startNeonWsProxy } from '../support/neon-ws-proxy';

/*
 * Issue 22 item 5: the hosted path's driver (Neon's serverless Pool over a WebSocket, through
 * NEON_WS_PROXY and tests/support/neon-ws-proxy.ts) keeps the guarantees the project leans on, as
 * node-postgres does: the migrations lock, rollback (savepoints too), advisory locks excluding
 * across connections, and FOR UPDATE SKIP LOCKED. Each check runs on both drivers against a fresh,
 * unmigrated database of the TEST_DATABASE_URL server, so a difference between them shows here.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

/** A promise with its resolve, to hold a transaction open while the other connection acts. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const admin = (text: string) => adminQuery(serverUrl as string, text);

// Without a Postgres server there is nothing for Neon's driver to reach (PGlite is one connection
// in-process), and the embedded path has its own tests.
describe.skipIf(!serverUrl)('the Neon driver behaves as node-postgres', () => {
  let proxy: NeonWsProxy;
  const databases: string[] = [];

  beforeAll(async () => {
    proxy = await startNeonWsProxy({ allow: [addressOfUrl(serverUrl as string)] });
  });

  afterAll(async () => {
    await proxy?.close();
    for (const name of databases) await admin(`drop database if exists ${name} with (force)`);
  });

  /** A fresh, empty (unmigrated) database on the server; dropped after the file. */
  async function freshDatabase(): Promise<string> {
    const name = `sw_drivers_${randomBytes(6).toString('hex')}`;
    await admin(`create database ${name}`);
    databases.push(name);
    return withDatabase(serverUrl as string, name);
  }

  it('the proxy relays only to the database server it was started for', async () => {
    const refused = await new Promise<number | string>((resolve) => {
      const socket = new WebSocket(`ws://${proxy.address}?address=127.0.0.1:9`);
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve('open'));
      socket.on('error', (error) => resolve(error.message));
    });
    expect(refused).toBe(403);
  });

  describe.each(['pg', 'neon'] as const)('%s', (driver) => {
    const open = (url: string) => openDatabase(url, '', driver === 'neon' ? proxy.address : undefined);
    // Two handles (two pools, as two processes would have) on one fresh database.
    let a: DbHandle;
    let b: DbHandle;

    beforeAll(async () => {
      const url = await freshDatabase();
      [a, b] = [await open(url), await open(url)];
    });

    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('opens the driver asked for (the Neon one through the proxy)', async () => {
      const relayed = proxy.stats().total;
      await a.db.execute(sql`select 1`);
      expect(a.driver).toBe(driver);
      // Every Neon connection crosses the proxy; node-postgres never touches it.
      if (driver === 'neon') expect(proxy.stats().total).toBeGreaterThan(0);
      else expect(proxy.stats().total).toBe(relayed);
    });

    it('applies each migration once when two processes migrate at once (the migrations lock)', async () => {
      await Promise.all([migrate(a), migrate(b)]);
      const journal = JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8'));
      const applied = await queryRows<{ n: string }>(
        a.db,
        sql`select count(*) as n from drizzle.__drizzle_migrations`,
      );
      expect(Number(applied[0]?.n)).toBe(journal.entries.length);
      // And again: nothing left to apply, nothing applied twice.
      await migrate(b);
      const again = await queryRows<{ n: string }>(
        a.db,
        sql`select count(*) as n from drizzle.__drizzle_migrations`,
      );
      expect(Number(again[0]?.n)).toBe(journal.entries.length);
    });

    it('rolls a failed transaction back, and a failed savepoint alone', async () => {
      await a.db.execute(sql`create table rollback_probe (id int primary key, note text)`);
      await expect(
        a.db.transaction(async (tx) => {
          await tx.execute(sql`insert into rollback_probe values (1, 'lost')`);
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      await a.db.transaction(async (tx) => {
        await tx.execute(sql`insert into rollback_probe values (2, 'kept')`);
        await expect(
          tx.transaction(async (inner) => {
            await inner.execute(sql`insert into rollback_probe values (3, 'lost in the savepoint')`);
            // A duplicate key fails the statement; the savepoint's rollback keeps the outer work.
            await inner.execute(sql`insert into rollback_probe values (2, 'duplicate')`);
          }),
        ).rejects.toThrow();
        await tx.execute(sql`insert into rollback_probe values (4, 'after the savepoint')`);
      });
      const rows = await queryRows<{ id: number }>(b.db, sql`select id from rollback_probe order by id`);
      expect(rows.map((r) => r.id)).toEqual([2, 4]);
    });

    /** Sessions of this database queued for advisory lock `key`, once the waiter's request lands. */
    async function waitersOn(key: number): Promise<number> {
      for (let attempt = 0; ; attempt++) {
        const r = await queryRows<{ n: string }>(
          a.db,
          sql`
          select count(*) as n from pg_locks
          where locktype = 'advisory' and not granted and objid = ${key} and objsubid = 1
            and database = (select oid from pg_database where datname = current_database())`,
        );
        const n = Number(r[0]?.n);
        if (n > 0 || attempt === 200) return n;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    it('excludes across connections with an advisory lock, until the holder commits', async () => {
      const key = 7419999;
      const held = gate();
      const release = gate();
      const order: string[] = [];
      const holder = a.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
        order.push('a locked');
        held.open();
        await release.promise;
        order.push('a commits');
      });
      await held.promise;
      const tried = await b.db.transaction(async (tx) => {
        const r = await queryRows<{ got: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${key}) as got`);
        return r[0]?.got;
      });
      expect(tried).toBe(false);
      // A blocking wait on the other connection returns only once the holder's transaction ends.
      const waiter = b.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
        order.push('b locked');
      });
      expect(await waitersOn(key)).toBe(1);
      release.open();
      await Promise.all([holder, waiter]);
      expect(order).toEqual(['a locked', 'a commits', 'b locked']);
    });

    it('skips rows another connection holds with FOR UPDATE SKIP LOCKED, and waits for none', async () => {
      await a.db.execute(sql`create table lease_probe (id int primary key, holder text)`);
      await a.db.execute(sql`insert into lease_probe select g, null from generate_series(1, 10) g`);
      const held = gate();
      const release = gate();
      let first: number[] = [];
      const holder = a.db.transaction(async (tx) => {
        const r = await queryRows<{ id: number }>(
          tx,
          sql`select id from lease_probe order by id limit 4 for update skip locked`,
        );
        first = r.map((row) => row.id);
        held.open();
        await release.promise;
        await tx.execute(sql`update lease_probe set holder = 'a' where id in ${first}`);
      });
      await held.promise;
      const second = await b.db.transaction(async (tx) => {
        const r = await queryRows<{ id: number }>(
          tx,
          sql`
          update lease_probe set holder = 'b' where id in (
            select id from lease_probe where holder is null order by id limit 4 for update skip locked
          ) returning id`,
        );
        return r.map((row) => row.id).sort((x, y) => x - y);
      });
      expect(first).toEqual([1, 2, 3, 4]);
      expect(second).toEqual([5, 6, 7, 8]);
      // Without SKIP LOCKED the same rows are locked, not skipped: NOWAIT says so at once (55P03).
      await expect(
        b.db.execute(sql`select id from lease_probe where id = 1 for update nowait`),
      ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '55P03' }) });
      release.open();
      await holder;
      const holders = await queryRows<{ holder: string | null; n: string }>(
        b.db,
        sql`select holder, count(*) as n from lease_probe group by holder order by holder`,
      );
      expect(holders.map((r) => [r.holder, Number(r.n)])).toEqual([
        ['a', 4],
        ['b', 4],
        [null, 2],
      ]);
    });
  });
});
