import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { signInCodeMessage } from '@/lib/email/templates';
import { MailDeliveryError, sendMail } from '@/lib/email/transport';
import { useTestDatabase } from '../support/db';
import { readRequestBody, startServer, type TestServer } from '../support/http-server';

let db: Db;
let teardown: () => Promise<void>;
let resend: TestServer;
const received: Array<{ auth: string | undefined; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  // A local server speaking Resend's documented POST /emails: 200 {id} or 4xx {statusCode, message, name}.
  resend = await startServer('127.0.0.1', {
    'POST /emails': async (req, res) => {
      const body = JSON.parse(await readRequestBody(req)) as Record<string, unknown>;
      received.push({ auth: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if ((body.to as string[])[0] === 'bounce@example.com') {
        res.statusCode = 422;
        res.end(
          JSON.stringify({ statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' }),
        );
        return;
      }
      res.end(JSON.stringify({ id: 'e2b8a8d0-resend-id' }));
    },
  });
});

afterEach(() => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  resetConfig();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await resend.close();
  await teardown();
});

describe('mail transport', () => {
  it('without a provider, stores the message and logs one line plus the text body', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await sendMail(db, signInCodeMessage('ada@example.com', '123456'));
    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]?.[0]);
    expect(line.split('\n')[0]).toBe(
      'mail to=ada@example.com subject="123456 is your Sitewatch sign-in code"',
    );
    expect(line).toContain('Your Sitewatch sign-in code is 123456.');
    const rows = await db.select().from(mailMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to: 'ada@example.com', transport: 'outbox' });
  });

  it('stores a sign-in code mail with the code redacted; the outbox log line keeps it', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { id } = await sendMail(db, signInCodeMessage('redact@example.com', '482915'));
    expect(String(log.mock.calls[0]?.[0])).toContain('subject="482915 is your Sitewatch sign-in code"');
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
    expect(row?.subject).toBe('[redacted] is your Sitewatch sign-in code');
    expect(row?.text).toContain('Your Sitewatch sign-in code is [redacted].');
    expect(row?.html).toContain('[redacted]');
    expect(JSON.stringify(row)).not.toContain('482915');
  });

  it('with RESEND_API_KEY, sends the code to the provider and stores only a redacted copy', async () => {
    process.env.RESEND_API_KEY = 're_test_secret_value';
    process.env.RESEND_BASE_URL = resend.origin;
    resetConfig();
    await sendMail(db, signInCodeMessage('provider@example.com', '739204'));
    expect(received.at(-1)?.body).toMatchObject({ subject: '739204 is your Sitewatch sign-in code' });
    expect(String(received.at(-1)?.body.text)).toContain('739204');
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.to, 'provider@example.com'));
    expect(row).toMatchObject({ transport: 'resend', subject: '[redacted] is your Sitewatch sign-in code' });
    expect(JSON.stringify(row)).not.toContain('739204');
  });

  it('with RESEND_API_KEY, posts to Resend and records the provider id without logging the key', async () => {
    process.env.RESEND_API_KEY = 're_test_secret_value';
    process.env.RESEND_BASE_URL = resend.origin;
    resetConfig();
    const log = vi.spyOn(console, 'log');
    const { id } = await sendMail(db, signInCodeMessage('grace@example.com', '654321'));
    expect(id).toBe('e2b8a8d0-resend-id');
    expect(received.at(-1)?.auth).toBe('Bearer re_test_secret_value');
    expect(received.at(-1)?.body).toMatchObject({
      to: ['grace@example.com'],
      subject: '654321 is your Sitewatch sign-in code',
    });
    for (const call of log.mock.calls) expect(String(call[0])).not.toContain('re_test_secret_value');
  });

  it('surfaces a provider rejection as a delivery error with the provider message', async () => {
    process.env.RESEND_API_KEY = 're_test_secret_value';
    process.env.RESEND_BASE_URL = resend.origin;
    resetConfig();
    const error = await sendMail(db, signInCodeMessage('bounce@example.com', '111111')).catch((e) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toBe(
      'mail provider refused the message (status 422: Invalid `to` field.)',
    );
    expect((error as Error).message).not.toContain('re_test_secret_value');
  });
});
