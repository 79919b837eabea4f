import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { readRequestBody, startServer, type TestServer } from './http-server';

/*
 * Local stand-ins for the services notifications go to, each speaking its documented format and
 * refusing what the real one would refuse, so a test that passes here sends what they accept:
 *
 * - Slack incoming webhook: POST JSON with `text` (and optional `blocks`); 200 `ok`, 400 `invalid_payload`.
 * - Discord webhook: POST JSON with `content` or `embeds` within the embed limits; 204.
 * - Teams Workflows webhook: POST `{type: 'message', attachments: [Adaptive Card]}`; 202.
 * - A generic receiver that verifies the Standard Webhooks signature with the `standardwebhooks`
 *   package and processes each `webhook-id` once, as the specification asks receivers to.
 * - Resend: POST /emails with a bearer key; an `Idempotency-Key` seen before answers the first
 *   send's id without delivering again.
 *
 * `fail(n, status)` makes a receiver answer `status` to the next n requests.
 */

export interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
}

export interface Receiver {
  server: TestServer;
  url: string;
  /** Every request that arrived, in order. */
  requests: Received[];
  /** Requests the receiver accepted and acted on (for the generic receiver and Resend: once per key). */
  processed: Received[];
  fail(times: number, status: number, body?: string): void;
  close(): Promise<void>;
}

function receiver(
  path: string,
  accept: (r: Received) => { status: number; body?: string } | null,
  host = '127.0.0.1',
) {
  return async (): Promise<Receiver> => {
    const requests: Received[] = [];
    const processed: Received[] = [];
    let failures: { times: number; status: number; body: string } = { times: 0, status: 500, body: '' };
    const server = await startServer(host, {
      [`POST ${path}`]: async (req, res) => {
        const raw = await readRequestBody(req);
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {}
        const received = { headers: req.headers, body, raw };
        requests.push(received);
        if (failures.times > 0) {
          failures.times--;
          res.statusCode = failures.status;
          res.end(failures.body);
          return;
        }
        const refusal = accept(received);
        if (refusal) {
          res.statusCode = refusal.status;
          res.end(refusal.body ?? '');
          return;
        }
        processed.push(received);
        res.statusCode = 200;
        res.end('ok');
      },
    });
    return {
      server,
      url: server.url(path),
      requests,
      processed,
      fail(times, status, body = `error ${status}`) {
        failures = { times, status, body };
      },
      close: () => server.close(),
    };
  };
}

export const startSlack = receiver('/services/T000/B000/XXXXSECRET', ({ body }) =>
  typeof body.text === 'string' &&
  body.text !== '' &&
  (body.blocks === undefined || Array.isArray(body.blocks))
    ? null
    : { status: 400, body: 'invalid_payload' },
);

const DISCORD = {
  title: 256,
  description: 4096,
  fields: 25,
  name: 256,
  value: 1024,
  footer: 2048,
  total: 6000,
};

/** Discord's documented embed limits; a message breaking one is a 400 as Discord answers it. */
export function discordProblem(body: Record<string, unknown>): string | null {
  const embeds = body.embeds as
    | {
        title?: string;
        description?: string;
        fields?: { name: string; value: string }[];
        footer?: { text: string };
      }[]
    | undefined;
  if (!body.content && !embeds?.length) return 'Cannot send an empty message';
  let total = 0;
  for (const e of embeds ?? []) {
    const len = (s?: string) => [...(s ?? '')].length;
    if (len(e.title) > DISCORD.title) return 'embeds.0.title: Must be 256 or fewer in length.';
    if (len(e.description) > DISCORD.description)
      return 'embeds.0.description: Must be 4096 or fewer in length.';
    if ((e.fields ?? []).length > DISCORD.fields) return 'embeds.0.fields: Must be 25 or fewer in length.';
    for (const f of e.fields ?? []) {
      if (len(f.name) > DISCORD.name || len(f.value) > DISCORD.value) return 'embeds.0.fields: too long';
      if (len(f.name) === 0 || len(f.value) === 0) return 'embeds.0.fields: This field is required';
    }
    if (len(e.footer?.text) > DISCORD.footer) return 'embeds.0.footer.text: too long';
    total += len(e.title) + len(e.description) + len(e.footer?.text);
    for (const f of e.fields ?? []) total += len(f.name) + len(f.value);
  }
  return total > DISCORD.total ? 'Embed size exceeds maximum size of 6000' : null;
}

export const startDiscord = receiver('/api/webhooks/1234/discord-token', ({ body }) => {
  const problem = discordProblem(body);
  return problem ? { status: 400, body: JSON.stringify({ message: problem, code: 50035 }) } : null;
});

export const startTeams = receiver('/workflows/abc/triggers/manual/paths/invoke', ({ body }) => {
  const attachment = (
    body.attachments as { contentType?: string; content?: { type?: string; body?: unknown[] } }[] | undefined
  )?.[0];
  return body.type === 'message' &&
    attachment?.contentType === 'application/vnd.microsoft.card.adaptive' &&
    attachment.content?.type === 'AdaptiveCard' &&
    Array.isArray(attachment.content.body)
    ? null
    : { status: 400, body: 'Bad Request: not an Adaptive Card message' };
});

/** The generic receiver: verifies with `secrets()` (any of them), drops a `webhook-id` it processed. */
export async function startHttpReceiver(secrets: () => string[]): Promise<Receiver & { rejected: string[] }> {
  const seen = new Set<string>();
  const rejected: string[] = [];
  const base = await receiver('/hooks/sitewatch', (r) => {
    const verified = secrets().some((secret) => {
      try {
        new Webhook(secret).verify(r.raw, r.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
    if (!verified) {
      rejected.push(String(r.headers['webhook-id']));
      return { status: 401, body: 'bad signature' };
    }
    const id = String(r.headers['webhook-id']);
    // Already processed: acknowledge without acting again.
    if (seen.has(id)) return { status: 200, body: 'duplicate' };
    seen.add(id);
    return null;
  })();
  return Object.assign(base, { rejected });
}

/** Resend's POST /emails: 200 `{id}`; an Idempotency-Key seen before answers the same id, sending nothing. */
export async function startResend(): Promise<Receiver> {
  const byKey = new Map<string, string>();
  let next = 0;
  const requests: Received[] = [];
  const processed: Received[] = [];
  let failures = { times: 0, status: 500, body: '' };
  const server = await startServer('127.0.0.1', {
    'POST /emails': async (req, res) => {
      const raw = await readRequestBody(req);
      const body = JSON.parse(raw) as Record<string, unknown>;
      const received = { headers: req.headers, body, raw };
      requests.push(received);
      res.setHeader('content-type', 'application/json');
      if (failures.times > 0) {
        failures.times--;
        res.statusCode = failures.status;
        res.end(failures.body);
        return;
      }
      if (!String(req.headers.authorization).startsWith('Bearer re_')) {
        res.statusCode = 401;
        res.end(JSON.stringify({ statusCode: 401, name: 'missing_api_key', message: 'Missing API key' }));
        return;
      }
      // Resend's attachment: `filename` and the file's bytes as base64 `content` (or a `path` URL).
      const attachments = body.attachments as { filename?: unknown; content?: unknown }[] | undefined;
      const badAttachment = attachments?.find(
        (a) =>
          typeof a.filename !== 'string' ||
          typeof a.content !== 'string' ||
          Buffer.from(a.content, 'base64').toString('base64') !== a.content,
      );
      if (attachments !== undefined && (!Array.isArray(attachments) || badAttachment)) {
        res.statusCode = 422;
        res.end(
          JSON.stringify({ statusCode: 422, name: 'validation_error', message: 'Invalid attachments' }),
        );
        return;
      }
      const key = req.headers['idempotency-key'] as string | undefined;
      const earlier = key ? byKey.get(key) : undefined;
      if (earlier) {
        res.end(JSON.stringify({ id: earlier }));
        return;
      }
      const id = `resend-${++next}`;
      if (key) byKey.set(key, id);
      processed.push(received);
      res.end(JSON.stringify({ id }));
    },
  });
  return {
    server,
    url: server.origin,
    requests,
    processed,
    fail(
      times,
      status,
      body = JSON.stringify({ statusCode: status, name: 'error', message: `error ${status}` }),
    ) {
      failures = { times, status, body };
    },
    close: () => server.close(),
  };
}
