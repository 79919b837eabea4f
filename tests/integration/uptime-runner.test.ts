import { afterAll, beforeAll, expect, it } from 'vitest';
import { functions } from '@/jobs/functions';
import { startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * The embedded runtime as `npm start` runs it: the job runner's boot hook starts the round loop,
 * and a monitor created through the API is probed from every region at once, with no other help.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  target = await startServer('127.0.0.1', { '/health': { body: 'ok' } });
  await startJobRuntime({ functions, force: true });
});
afterAll(async () => {
  await stopJobRuntime();
  await target.close();
  await teardown();
});

it('probes a new monitor from the four regions at once', async () => {
  const { token } = await signInOwner(db, 'owner@uptime-runner.test');
  const site = await v1({ token }).POST('/v1/sites', {
    body: { rootUrl: 'https://uptime-runner.example/', scannerEnabled: false, seoEnabled: false },
  });
  const siteId = site.body.site.id as string;
  const created = await v1({ token }).POST('/v1/sites/{id}/uptime/monitors', {
    params: { path: { id: siteId } },
    body: { url: target.url('/health') },
  });
  expect(created.status).toBe(201);
  const monitorId = created.body.monitor.id as string;
  const live = () =>
    v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}/live', {
      params: { path: { id: siteId, monitorId } },
    });
  let state = await live();
  for (let i = 0; i < 100 && state.body.consensus === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = await live();
  }
  expect(state.body.consensus).toMatchObject({ status: 'up', failedRegions: [] });
  expect(state.body.monitor).toMatchObject({ status: 'up' });
  expect(state.body.regions.map((r: { probe: { statusCode: number } }) => r.probe.statusCode)).toEqual([
    200, 200, 200, 200,
  ]);
  expect(target.hits('/health')).toBe(4);
});
