import { pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';

/**
 * Data migrations applied (lib/db/data-migrations.ts): changes to rows that SQL cannot make, such as
 * sealing stored values under the server's encryption key, run once after the schema migrations.
 */
export const dataMigrations = pgTable('data_migrations', {
  name: text('name').primaryKey(),
  applied_at: epochMs('applied_at').notNull(),
});
