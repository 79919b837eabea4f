import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { closeDispatchers } from '@/lib/net';
import { probeOnce } from '@/lib/uptime/probe';
import { embeddedProbers } from '@/lib/uptime/regions';
import type { ProbeTarget } from '@/lib/uptime/types';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { incidentsOf, monitorRow, nextRound, outboxOf, siteWithMonitorByApi } from '../support/uptime';

/*
 * Issue 26 item 6, keyword and status expectations on http monitors, against a real server on
 * 127.0.0.1: the expected status codes (codes and ranges, 4xx and 5xx included) decide up or down
 * instead of 2xx/3xx; a text must (or must not) appear in the first 1 MiB of the body, read through
 * lib/net's bounded read; a failed expectation is cause `expectation` with the detail in words,
 * through a real round to the incident and its outage alert.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
let owner: { token: string; tenantId: string };
const MiB = 1024 * 1024;

/** A body of `size` bytes of filler with `text` at `at`, sent in 64 KiB chunks (no Content-Length). */
function bodyWith(text: string, at: number, size: number) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const body = Buffer.alloc(size, 'x');
    body.write(text, at);
    let sent = 0;
    const next = () => {
      while (sent < size) {
        const chunk = body.subarray(sent, sent + 65_536);
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', next);
      }
      res.end();
    };
    res.on('error', () => {});
    next();
  };
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@expectations.test');
  target = await startServer('127.0.0.1', {
    '/ok': { body: '<h1>Welcome back</h1>' },
    '/error-banner': { body: '<div class="alert">Database error</div>' },
    '/private': { status: 401, body: 'sign in first' },
    '/teapot': { status: 418, body: 'short and stout' },
    '/created': { status: 201, body: 'made' },
    '/down': { status: 503, body: 'maintenance' },
    '/late-keyword': bodyWith('NEEDLE', MiB + 10, MiB + 4096),
    '/early-keyword': bodyWith('NEEDLE', 1000, 3 * MiB),
  });
});

afterAll(async () => {
  await target?.close();
  await closeDispatchers();
  await teardown();
});

const probeOf = (path: string, expect: ProbeTarget['expect']) =>
  probeOnce({ monitorId: 'm', url: target.url(path), timeoutSeconds: 10, expect }, { allowPrivate: true });
const none = { statuses: [], keyword: null, keywordAbsent: false };

describe('expected status codes', () => {
  it('count the listed codes and ranges as up, 4xx and 5xx included', async () => {
    expect(await probeOf('/private', { ...none, statuses: ['401'] })).toMatchObject({
      ok: true,
      status: 401,
      cause: null,
    });
    expect(await probeOf('/teapot', { ...none, statuses: ['200-299', '400-499'] })).toMatchObject({
      ok: true,
    });
    expect(await probeOf('/down', { ...none, statuses: ['503'] })).toMatchObject({ ok: true });
  });

  it('fail any other status with cause expectation, naming what was expected', async () => {
    expect(await probeOf('/ok', { ...none, statuses: ['401'] })).toMatchObject({
      ok: false,
      status: 200,
      cause: 'expectation',
      error: 'the server answered HTTP 200, not one of the expected 401',
    });
    expect(await probeOf('/created', { ...none, statuses: ['200', '204-204'] })).toMatchObject({
      cause: 'expectation',
    });
  });

  it('without a list keep the default rule: 2xx and 3xx up, 4xx and 5xx by their own causes', async () => {
    expect(await probeOf('/created', none)).toMatchObject({ ok: true });
    expect(await probeOf('/private', none)).toMatchObject({ ok: false, cause: 'http_4xx' });
    expect(await probeOf('/down', undefined)).toMatchObject({ ok: false, cause: 'http_5xx' });
  });
});

describe('a keyword', () => {
  it('that must appear passes when it does and fails with the detail when it does not', async () => {
    expect(await probeOf('/ok', { ...none, keyword: 'Welcome' })).toMatchObject({ ok: true });
    expect(await probeOf('/ok', { ...none, keyword: 'welcome' })).toMatchObject({
      ok: false,
      status: 200,
      cause: 'expectation',
      error: 'the body does not contain "welcome"',
    });
  });

  it('that must not appear fails when it does', async () => {
    expect(
      await probeOf('/error-banner', { ...none, keyword: 'Database error', keywordAbsent: true }),
    ).toMatchObject({
      ok: false,
      cause: 'expectation',
      error: 'the body contains "Database error"',
    });
    expect(await probeOf('/ok', { ...none, keyword: 'Database error', keywordAbsent: true })).toMatchObject({
      ok: true,
    });
  });

  it('is looked for in the first 1 MiB only: the read stops there', async () => {
    expect(await probeOf('/early-keyword', { ...none, keyword: 'NEEDLE' })).toMatchObject({ ok: true });
    expect(await probeOf('/late-keyword', { ...none, keyword: 'NEEDLE' })).toMatchObject({
      ok: false,
      cause: 'expectation',
      error: 'the first 1 MiB of the body does not contain "NEEDLE"',
    });
  });

  it('is judged after the status: a 503 stays a server error', async () => {
    expect(await probeOf('/down', { ...none, keyword: 'Welcome' })).toMatchObject({ cause: 'http_5xx' });
  });
});

describe('through the API and a round', () => {
  it('a failed expectation opens an incident with cause expectation and the detail in its alert', async () => {
    const { siteId, monitorId } = await siteWithMonitorByApi(owner.token, 'round.expectations.test', {
      url: target.url('/ok'),
      expectedStatuses: ['200-299'],
      keyword: 'Welcome',
    });
    const monitor = { params: { path: { id: siteId, monitorId } } };
    const read = await v1({ token: owner.token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', monitor);
    expect(read.body.monitor).toMatchObject({
      kind: 'http',
      expected_statuses: ['200-299'],
      keyword: 'Welcome',
      keyword_absent: 0,
      ping_url: null,
    });
    const probers = () => embeddedProbers({ retryDelayMs: 10 });
    expect((await nextRound(db, probers, monitorId)).outcome.verdict).toMatchObject({ status: 'up' });

    // The page changes its words: every region reads the body and misses the keyword.
    const edited = await v1({ token: owner.token }).PATCH('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      ...monitor,
      body: { keyword: 'Goodbye' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const { outcome } = await nextRound(db, probers, monitorId);
    expect(outcome.verdict).toMatchObject({ status: 'down', cause: 'expectation' });
    const [incident] = await incidentsOf(db, monitorId);
    expect(incident).toMatchObject({ cause: 'expectation', recovered_at: null });
    const [down] = await outboxOf(db, monitorId);
    expect(down!.payload).toMatchObject({
      cause: 'expectation',
      detail: 'the body does not contain "Goodbye"',
    });
    expect((await monitorRow(db, monitorId)).status).toBe('down');

    // Invalid expectations are refused naming the field.
    const refused = await v1({ token: owner.token }).PATCH('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      ...monitor,
      body: { expectedStatuses: ['299-200'] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/^expectedStatuses\.0: must be a status code/);
  });
});
