import { sendEvent } from '@/jobs/runtime';
import { servePing } from '@/lib/api/ping';

/**
 * A heartbeat monitor's ping (lib/api/ping.ts): public, the token in the path is the credential. A
 * ping that ends an outage has its recovery delivered at once rather than at the next minute.
 */
const ping = async (_req: Request, context: { params: Promise<{ token: string }> }) =>
  servePing((await context.params).token, async () => {
    await sendEvent({ name: 'notify/queued', data: { reason: 'heartbeat' } }).catch((error: unknown) =>
      console.error('ping: announcing the recovery failed:', error),
    );
  });

export const GET = ping;
export const POST = ping;
