import { createFunction } from '@/jobs/runtime';
import { getDb } from '@/lib/db/client';
import { queueMonthlyReports } from '@/lib/reports/schedule';

/**
 * The monthly stakeholder reports (lib/reports/schedule.ts): at the top of every hour of the 1st
 * (UTC), last month's report is queued for each site with report recipients, once per (site,
 * month); the delivery job renders and mails it. Hourly rather than once at midnight so a server
 * that was down then still sends that day; the outbox's dedupe key makes the later runs no-ops.
 */
export const monthlyReportsFunction = createFunction(
  {
    id: 'monthly-reports',
    name: 'Queue the monthly stakeholder reports',
    retries: 3,
    triggers: [{ cron: '0 * 1 * *' }],
  },
  async ({ event, step }) => {
    // The tick's time: the embedded runner's clock (tests inject one) or Inngest's schedule time.
    const now = typeof event.ts === 'number' ? event.ts : Date.now();
    const queued = await step.run('queue-reports', async () => queueMonthlyReports(await getDb(), now));
    if (queued > 0) {
      await step.sendEvent('deliver', { name: 'notify/queued', data: { reason: 'monthly-reports' } });
    }
    return { queued };
  },
);
