import { getDb } from '@/lib/db/client';
import { recordPing } from '@/lib/uptime/heartbeats';
import { PINGS_PER_MINUTE } from '@/lib/uptime/limits';

/*
 * The HTTP side of a heartbeat ping, `GET` or `POST /ping/{token}` (app/ping/[token]/route.ts): what
 * a cron line's `curl` calls, so the answers are plain text and nothing is read but the token (no
 * cookie, no credential, no body). 200 "OK"; 404 for a token that is no monitor's (made up, rotated
 * away, its monitor deleted); 429 with Retry-After past PINGS_PER_MINUTE pings of the token in the
 * minute. The rules are lib/uptime/heartbeats.ts's.
 */

const TEXT = {
  'content-type': 'text/plain; charset=utf-8',
  // A ping is an event, never a cacheable answer: a proxy that answered from cache would hide a dead job.
  'cache-control': 'no-store',
};

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { ...TEXT, ...headers } });
}

/**
 * `onRecovered`: told when a ping closed an incident (its recovery is queued), to have it delivered
 * now. Awaited before the answer: a serverless function may be frozen once it has answered, and
 * work left running then is lost (the minute's scheduler would deliver it all the same, later).
 */
export async function servePing(
  token: string,
  onRecovered: () => Promise<void> = async () => {},
): Promise<Response> {
  try {
    const outcome = await recordPing(await getDb(), token, Date.now());
    if (outcome.kind === 'unknown') return text(404, 'not found: no heartbeat monitor has this ping URL');
    if (outcome.kind === 'limited') {
      return text(
        429,
        `too many pings: at most ${PINGS_PER_MINUTE} a minute per ping URL; try again in ${outcome.retryAfterSeconds} s`,
        { 'retry-after': String(outcome.retryAfterSeconds) },
      );
    }
    if (outcome.recovered) await onRecovered();
    return text(200, 'OK');
  } catch (error) {
    console.error('ping: recording failed:', error);
    return text(500, 'the ping could not be recorded; try again');
  }
}
