import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { vacuumEmbedded } from '@/lib/db/vacuum';

/*
 * The embedded database has no autovacuum: the nightly vacuum (jobs/functions/maintenance.ts) is
 * what gives back the space of deleted and replaced rows. Here a table is filled and emptied, as a
 * crawl's frontier is when the next crawl finalizes; vacuuming truncates the empty pages at its end.
 */

async function pages(handle: DbHandle): Promise<number> {
  const [row] = await queryRows<{ pages: string | number }>(
    handle.db,
    sql`select pg_relation_size('churned') / current_setting('block_size')::int as pages`,
  );
  return Number(row?.pages);
}

async function churn(handle: DbHandle): Promise<void> {
  await handle.db.execute(sql`create table churned (id int primary key, body text)`);
  await handle.db.execute(
    sql`insert into churned select i, repeat('x', 200) from generate_series(1, 5000) as i`,
  );
  await handle.db.execute(sql`delete from churned`);
}

describe('vacuumEmbedded on embedded PGlite', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openDatabase(undefined, 'memory://');
    await churn(handle);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('gives back the space of deleted rows', async () => {
    expect(await pages(handle)).toBeGreaterThan(100);
    expect(await vacuumEmbedded(handle)).toEqual({ vacuumed: true });
    expect(await pages(handle)).toBe(0);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

// A Postgres server (and Neon) has autovacuum: the nightly job leaves it alone.
describe.skipIf(!serverUrl)('vacuumEmbedded on a Postgres server', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openDatabase(serverUrl, '');
    await handle.db.execute(sql`drop table if exists churned`);
    await churn(handle);
  });
  afterAll(async () => {
    await handle.db.execute(sql`drop table if exists churned`);
    await handle.close();
  });

  it('does nothing: the server vacuums on its own', async () => {
    const before = await pages(handle);
    expect(before).toBeGreaterThan(100);
    expect(await vacuumEmbedded(handle)).toEqual({ vacuumed: false });
    expect(await pages(handle)).toBe(before);
  });
});
