import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import { openBatch, readBatchAnswer } from '@/lib/uptime/batch';
import { answerBatch, hostedProber, PROTECTION_BYPASS_HEADER } from '@/lib/uptime/hosted';
import { regionProbers } from '@/lib/uptime/probers';
import { embeddedProbers, probeRound } from '@/lib/uptime/regions';
import { SIGNATURE_HEADER, signBatch } from '@/lib/uptime/signing';
import { readRequestBody, startServer, type TestServer } from '@/tests/support/http-server';

/*
 * The hosted protocol end to end on 127.0.0.1: a local server stands in for the Europe region's
 * route handler (raw body and signature header in, `answerBatch` out), the coordinator side is
 * `hostedProber` going through lib/net.
 */

const SECRET = 'a-test-secret-of-at-least-32-characters';
const BYPASS = 'vercel-automation-bypass-secret';
let target: TestServer;
let region: TestServer;
let batchesSeen = 0;

beforeAll(async () => {
  target = await startServer('127.0.0.1', { '/': { body: 'ok' }, '/broken': { status: 500 } });
  region = await startServer('127.0.0.2', {
    'POST /api/uptime/regions/eu': async (req, res) => {
      batchesSeen++;
      const header = req.headers[SIGNATURE_HEADER];
      const answer = await answerBatch(
        SECRET,
        'eu',
        await readRequestBody(req),
        Array.isArray(header) ? header[0] : header,
        Date.now(),
        { retryDelayMs: 0 },
      );
      res.statusCode = answer.ok ? 200 : 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.ok ? answer.answer : { error: 'unauthorized' }));
    },
    // Behind Vercel's Deployment Protection: the edge turns away a call without the bypass secret.
    'POST /api/uptime/regions/oc': async (req, res) => {
      const body = await readRequestBody(req);
      if (req.headers[PROTECTION_BYPASS_HEADER] !== BYPASS) {
        res.statusCode = 401;
        res.end('Authentication Required');
        return;
      }
      const header = req.headers[SIGNATURE_HEADER];
      const answer = await answerBatch(
        SECRET,
        'oc',
        body,
        Array.isArray(header) ? header[0] : header,
        Date.now(),
      );
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.ok ? answer.answer : { error: 'unauthorized' }));
    },
  });
});

afterAll(async () => {
  await target.close();
  await region.close();
});

const targets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    monitorId: `m${i}`,
    url: target.url(i % 2 === 0 ? '/' : '/broken'),
    timeoutSeconds: 5,
  }));

describe('hosted regions', () => {
  it('probe a signed batch in the region and answer one result per target, in order', async () => {
    const before = batchesSeen;
    const eu = hostedProber('eu', {
      endpoint: region.url('/api/uptime/regions/eu'),
      secret: SECRET,
      maxBatch: 2,
    });
    const results = await eu.probe(targets(5));
    expect(batchesSeen - before).toBe(3);
    expect(results.map((r) => [r.ok, r.status, r.cause])).toEqual([
      [true, 200, null],
      [false, 500, 'http_5xx'],
      [true, 200, null],
      [false, 500, 'http_5xx'],
      [true, 200, null],
    ]);
    expect(results[1]?.attempts).toBe(2);
  });

  it('refuse a batch signed with another secret, and the round goes on without that region', async () => {
    const impostor = hostedProber('eu', {
      endpoint: region.url('/api/uptime/regions/eu'),
      secret: 'another-secret-of-at-least-32-characters',
    });
    await expect(impostor.probe(targets(1))).rejects.toThrow(/answered HTTP 401/);
    const others = embeddedProbers({ retryDelayMs: 0 }).filter((p) => p.region !== 'eu');
    const round = await probeRound([...others, impostor], targets(1));
    expect(round.get('m0')?.map((r) => r.region)).toEqual(['na', 'as', 'oc']);
  });

  it("get through a protected deployment with Vercel's bypass secret, which the coordinator sends when set", async () => {
    const endpoint = region.url('/api/uptime/regions/oc');
    await expect(hostedProber('oc', { endpoint, secret: SECRET }).probe(targets(1))).rejects.toThrow(
      /answered HTTP 401/,
    );
    const through = await hostedProber('oc', { endpoint, secret: SECRET, protectionBypass: BYPASS }).probe(
      targets(1),
    );
    expect(through.map((r) => r.ok)).toEqual([true]);

    const saved = { ...process.env };
    Object.assign(process.env, {
      UPTIME_PROBE_SECRET: SECRET,
      UPTIME_REGIONS_URL: region.url('/'),
      VERCEL_AUTOMATION_BYPASS_SECRET: BYPASS,
    });
    resetConfig();
    try {
      const oc = regionProbers().find((p) => p.region === 'oc')!;
      expect((await oc.probe(targets(1))).map((r) => r.ok)).toEqual([true]);
    } finally {
      for (const key of ['UPTIME_PROBE_SECRET', 'UPTIME_REGIONS_URL', 'VERCEL_AUTOMATION_BYPASS_SECRET']) {
        if (key in saved) process.env[key] = saved[key];
        else delete process.env[key];
      }
      resetConfig();
    }
  });

  it('refuse a batch meant for another region, and malformed or unsigned bodies', () => {
    const now = Date.now();
    const forNa = JSON.stringify({ round: 'r', region: 'na', targets: [] });
    expect(openBatch(SECRET, 'eu', forNa, signBatch(SECRET, forNa, now), now)).toEqual({
      ok: false,
      reason: 'batch is for region na',
    });
    const ftp = JSON.stringify({
      round: 'r',
      region: 'eu',
      targets: [{ monitorId: 'm', url: 'ftp://x/', timeoutSeconds: 5 }],
    });
    expect(openBatch(SECRET, 'eu', ftp, signBatch(SECRET, ftp, now), now)).toEqual({
      ok: false,
      reason: 'malformed batch',
    });
    expect(openBatch(SECRET, 'eu', 'not json', signBatch(SECRET, 'not json', now), now)).toEqual({
      ok: false,
      reason: 'body is not JSON',
    });
    const good = JSON.stringify({ round: 'r', region: 'eu', targets: [] });
    expect(openBatch(SECRET, 'eu', good, undefined, now)).toEqual({ ok: false, reason: 'missing signature' });
    expect(openBatch(SECRET, 'eu', good, signBatch(SECRET, good, now), now)).toEqual({
      ok: true,
      batch: { round: 'r', region: 'eu', targets: [] },
    });
  });

  it('take an answer only for the batch sent: same round and region, one valid result per target', () => {
    const batch = { round: 'r1', region: 'eu' as const, targets: targets(1) };
    const result = {
      ok: true,
      status: 200,
      totalMs: 12.5,
      phases: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2 },
      tlsCertExpiresAt: null,
      cause: null,
      error: null,
      checkedAt: 1,
      attempts: 1,
    };
    expect(readBatchAnswer(batch, { round: 'r1', region: 'eu', results: [result] })).toEqual([result]);
    expect(() => readBatchAnswer(batch, { round: 'r0', region: 'eu', results: [result] })).toThrow(
      /expected eu round r1/,
    );
    expect(() => readBatchAnswer(batch, { round: 'r1', region: 'eu', results: [] })).toThrow(
      /0 results for 1 targets/,
    );
    expect(() =>
      readBatchAnswer(batch, { round: 'r1', region: 'eu', results: [{ ...result, cause: 'gremlins' }] }),
    ).toThrow();
  });
});
