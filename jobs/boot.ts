import { functions } from '@/jobs/functions';
import { startJobRuntime } from '@/jobs/runtime';
import { startAuth } from '@/lib/auth/start';
import { config } from '@/lib/config';
import { getDbHandle } from '@/lib/db/client';

/**
 * Server start-up: database first (migrations), then the job runtime and its boot hooks. This is the
 * composition root, so it lives beside the runner, outside lib/: domain code never starts jobs.
 */
export async function boot(): Promise<void> {
  const c = config();
  startAuth(c);
  const handle = await getDbHandle();
  const runner = await startJobRuntime({ functions });
  console.log(
    `sitewatch: database ${handle.driver}${handle.driver === 'pglite' ? ` (${c.PGLITE_DIR})` : ''}, jobs ${runner ? 'embedded runner' : 'Inngest'}, mail ${c.RESEND_API_KEY ? 'Resend' : 'local outbox'}`,
  );
}
