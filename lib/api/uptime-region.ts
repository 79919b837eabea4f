import { config } from '@/lib/config';
import { answerBatch } from '@/lib/uptime/hosted';
import { SIGNATURE_HEADER } from '@/lib/uptime/signing';
import type { Region } from '@/lib/uptime/types';
import { ApiError } from './errors';
import { readBodyText } from './pipeline';

/**
 * The POST handler of one hosted probe region (app/api/uptime/regions/<region>/route.ts): outside
 * /v1 and its credentials, since only the coordinator calls it, with a batch signed by the shared
 * `UPTIME_PROBE_SECRET`. A call it cannot verify (no secret configured here, a missing, bad or
 * stale signature, a malformed batch, a batch for another region) is a 401 that says no more;
 * otherwise it probes the batch from this region and answers one result per target.
 */
export function regionHandler(region: Region): (req: Request) => Promise<Response> {
  return async (req) => {
    const secret = config().UPTIME_PROBE_SECRET;
    const refused = () => Response.json({ error: 'unauthorized' }, { status: 401 });
    if (!secret) return refused();
    let body: string;
    try {
      body = await readBodyText(req, MAX_BATCH_BODY_BYTES);
    } catch (error) {
      if (error instanceof ApiError) return Response.json({ error: error.message }, { status: error.status });
      throw error;
    }
    const answered = await answerBatch(secret, region, body, req.headers.get(SIGNATURE_HEADER), Date.now());
    if (!answered.ok) return refused();
    return Response.json(answered.answer);
  };
}

/** A batch of 500 targets with long URLs stays well under this; nobody unsigned gets to send more. */
const MAX_BATCH_BODY_BYTES = 2 * 1024 * 1024;
