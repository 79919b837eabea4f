export { closeDb, type Db, getDb } from './client';
export * as tables from './schema';
