import { createFunction } from '@/jobs/runtime';
import { getDbHandle } from '@/lib/db/client';
import { vacuumEmbedded } from '@/lib/db/vacuum';

/**
 * Nightly: the embedded database reclaims the row versions crawls and pruning leave behind (PGlite
 * has no autovacuum; lib/db/vacuum.ts). On a Postgres server or Neon it answers at once without
 * touching the database: autovacuum does this there.
 */
export const databaseVacuumFunction = createFunction(
  {
    id: 'database-vacuum',
    name: 'Vacuum the embedded database',
    retries: 1,
    triggers: [{ cron: '17 4 * * *' }],
  },
  async ({ step }) => step.run('vacuum', async () => vacuumEmbedded(await getDbHandle())),
);
