import { bigint, customType, integer } from 'drizzle-orm/pg-core';

/** Epoch milliseconds. bigint in Postgres, a JS number in code (safe until the year 287396). */
export const epochMs = (name: string) => bigint(name, { mode: 'number' });

/** The spec's persisted 0/1 flags, typed as the Site resource declares them (no other value is written). */
export const flag = (name: string) => integer(name).$type<0 | 1>().notNull();

export const now = () => Date.now();

/** Raw bytes: PGlite reads bytea as a Uint8Array, node-postgres and Neon as a Buffer (one). */
export const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
