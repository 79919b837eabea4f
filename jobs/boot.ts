import { startAuth } from '@/lib/auth/start';
import { config } from '@/lib/config';

/**
 * Server start-up. This is the composition root, so it lives beside the runner, outside lib/:
 * domain code never starts jobs.
 *
 * - On Vercel (VERCEL=1) every function is a short-lived process that Inngest and the edge call:
 *   auth's start-up checks only. The database opens at the first request that needs it, the
 *   deployment's build has migrated it, and Inngest runs the jobs through /api/inngest; nothing
 *   of the job graph (crawler, render pass, Chromium) is loaded here, so a cold start stays short.
 * - Otherwise (the embedded one-box server): the database first (migrations), then the job
 *   runtime and its boot hooks, which resume interrupted work.
 */
export async function boot(): Promise<void> {
  const c = config();
  startAuth(c);
  if (c.VERCEL) {
    console.log(`sitewatch: on Vercel, jobs ${c.inngestHosted ? 'Inngest' : 'not configured'}`);
    return;
  }
  // Imported here, not at the top: the hosted path above must not evaluate the job graph.
  const [{ getDbHandle }, { startJobRuntime }, { functions }] = await Promise.all([
    import('@/lib/db/client'),
    import('@/jobs/runtime'),
    import('@/jobs/functions'),
  ]);
  const handle = await getDbHandle();
  const runner = await startJobRuntime({ functions });
  console.log(
    `sitewatch: database ${handle.driver}${handle.driver === 'pglite' ? ` (${c.PGLITE_DIR})` : ''}, jobs ${runner ? 'embedded runner' : 'Inngest'}, mail ${c.RESEND_API_KEY ? 'Resend' : 'local outbox'}`,
  );
}
