import { config } from '@/lib/config';
import { openDatabase } from './client';
import { migrate } from './migrate';

const c = config();
const handle = await openDatabase(c.DATABASE_URL, c.PGLITE_DIR, c.NEON_WS_PROXY);
await migrate(handle);
await handle.close();
console.log(`migrations applied (${handle.driver})`);
