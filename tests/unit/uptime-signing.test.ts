import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, REPLAY_WINDOW_MS, signBatch, verifyBatch } from '@/lib/uptime/signing';

describe('signed probe batches', () => {
  const secret = 's'.repeat(MIN_SECRET_LENGTH);
  const body = JSON.stringify({
    round: 'r1',
    targets: [{ monitorId: 'm', url: 'https://example.com/', timeoutSeconds: 10 }],
  });
  const now = 1_800_000_000_000;

  it('accepts its own signature within the replay window, either side', () => {
    const header = signBatch(secret, body, now);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyBatch(secret, body, header, now)).toEqual({ ok: true });
    expect(verifyBatch(secret, body, header, now + REPLAY_WINDOW_MS)).toEqual({ ok: true });
    expect(verifyBatch(secret, body, header, now - REPLAY_WINDOW_MS)).toEqual({ ok: true });
  });

  it('refuses a stale or future timestamp, a changed body, another secret, and garbage', () => {
    const header = signBatch(secret, body, now);
    expect(verifyBatch(secret, body, header, now + REPLAY_WINDOW_MS + 1)).toEqual({
      ok: false,
      reason: 'signature outside the replay window',
    });
    expect(verifyBatch(secret, body, header, now - REPLAY_WINDOW_MS - 1).ok).toBe(false);
    expect(verifyBatch(secret, `${body} `, header, now)).toEqual({ ok: false, reason: 'bad signature' });
    expect(verifyBatch('t'.repeat(MIN_SECRET_LENGTH), body, header, now)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
    // A fresh timestamp on an old signature does not pass: the timestamp is signed too.
    const replayed = header.replace(/^t=\d+/, `t=${now + 60_000}`);
    expect(verifyBatch(secret, body, replayed, now + 60_000)).toEqual({ ok: false, reason: 'bad signature' });
    expect(verifyBatch(secret, body, undefined, now)).toEqual({ ok: false, reason: 'missing signature' });
    expect(verifyBatch(secret, body, 't=abc,v1=00', now)).toEqual({
      ok: false,
      reason: 'malformed signature',
    });
  });

  it('refuses a short secret outright', () => {
    expect(() => signBatch('short', body, now)).toThrow(/at least 32 characters/);
  });
});
