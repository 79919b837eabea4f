import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createMonitorBody, monitorMetricsQuery, updateMonitorBody } from '@/lib/api/schemas/uptime';
import { resetConfig } from '@/lib/config';

/** Each issue as the API reports it: "field: problem" (the pipeline's format). */
function problems(schema: z.ZodType, input: unknown): string[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

// As in production: private and loopback targets refused when a URL is saved.
const previous = process.env.ALLOW_PRIVATE_NETWORK;
beforeAll(() => {
  process.env.ALLOW_PRIVATE_NETWORK = 'false';
  resetConfig();
});
afterAll(() => {
  process.env.ALLOW_PRIVATE_NETWORK = previous;
  resetConfig();
});

describe('createMonitorBody', () => {
  it('applies the spec defaults and normalizes the URL, keeping path and query', () => {
    expect(createMonitorBody.parse({ url: 'HTTPS://Example.com/health?deep=1#top' })).toEqual({
      url: 'https://example.com/health?deep=1',
      name: null,
      cadenceSeconds: 60,
      timeoutSeconds: 10,
      enabled: true,
      alertEmails: [],
      alertWebhooks: [],
      kind: 'http',
      expectedStatuses: [],
      keyword: null,
      keywordAbsent: false,
      periodSeconds: null,
      graceSeconds: null,
    });
  });

  it('requires a reachable http(s) URL', () => {
    expect(problems(createMonitorBody, {})).toEqual(['url: is required']);
    expect(problems(createMonitorBody, { url: 'ftp://example.com/' })).toEqual([
      'url: must use http or https, not ftp',
    ]);
    expect(problems(createMonitorBody, { url: 'http://127.0.0.1:8080/' })[0]).toMatch(
      /^url: must not point at a loopback address/,
    );
    expect(problems(createMonitorBody, { url: 'http://printer.local/' })[0]).toMatch(
      /^url: must not point at a private host name/,
    );
    expect(problems(createMonitorBody, { url: 'https://user:pw@example.com/' })).toEqual([
      'url: must not contain a user name or password',
    ]);
  });

  it('allows only the spec cadences and a timeout of 1 to 30 seconds', () => {
    const url = 'https://example.com/';
    for (const cadenceSeconds of [60, 300, 900, 1800, 3600]) {
      expect(problems(createMonitorBody, { url, cadenceSeconds })).toEqual([]);
    }
    expect(problems(createMonitorBody, { url, cadenceSeconds: 120 })).toEqual([
      'cadenceSeconds: must be one of 60, 300, 900, 1800, 3600',
    ]);
    expect(problems(createMonitorBody, { url, cadenceSeconds: '60' })).toEqual([
      'cadenceSeconds: must be a whole number',
    ]);
    expect(problems(createMonitorBody, { url, timeoutSeconds: 1 })).toEqual([]);
    expect(problems(createMonitorBody, { url, timeoutSeconds: 30 })).toEqual([]);
    expect(problems(createMonitorBody, { url, timeoutSeconds: 0 })).toEqual([
      'timeoutSeconds: must be at least 1',
    ]);
    expect(problems(createMonitorBody, { url, timeoutSeconds: 31 })).toEqual([
      'timeoutSeconds: must be at most 30',
    ]);
    expect(problems(createMonitorBody, { url, timeoutSeconds: 2.5 })).toEqual([
      'timeoutSeconds: must be a whole number',
    ]);
  });

  it('caps the name at 100 characters, null or blank showing the URL', () => {
    const url = 'https://example.com/';
    expect(createMonitorBody.parse({ url, name: '  Home  ' }).name).toBe('Home');
    expect(createMonitorBody.parse({ url, name: '   ' }).name).toBeNull();
    expect(createMonitorBody.parse({ url, name: 'x'.repeat(100) }).name).toHaveLength(100);
    expect(problems(createMonitorBody, { url, name: 'x'.repeat(101) })).toEqual([
      'name: must be at most 100 characters',
    ]);
  });

  it('takes at most 10 alert emails and 5 webhooks of the four kinds, each checked', () => {
    const url = 'https://example.com/';
    const emails = Array.from({ length: 10 }, (_, i) => `ops${i}@example.com`);
    expect(
      createMonitorBody.parse({ url, alertEmails: ['ops@example.com', ' OPS@example.com'] }).alertEmails,
    ).toEqual(['ops@example.com']);
    expect(createMonitorBody.parse({ url, alertEmails: emails }).alertEmails).toEqual(emails);
    expect(problems(createMonitorBody, { url, alertEmails: [...emails, 'x@example.com'] })).toEqual([
      'alertEmails: must have at most 10 addresses',
    ]);
    expect(problems(createMonitorBody, { url, alertEmails: ['not-an-address'] })).toEqual([
      'alertEmails.0: must be an email address',
    ]);
    const hooks = ['slack', 'discord', 'teams', 'http', 'http'].map((kind, i) => ({
      kind,
      url: `https://hooks.example.com/${i}`,
    }));
    expect(createMonitorBody.parse({ url, alertWebhooks: hooks }).alertWebhooks).toHaveLength(5);
    expect(problems(createMonitorBody, { url, alertWebhooks: [...hooks, hooks[0]] })).toEqual([
      'alertWebhooks: must have at most 5 webhooks',
    ]);
    expect(
      problems(createMonitorBody, { url, alertWebhooks: [{ kind: 'pager', url: 'https://x.example.com/' }] }),
    ).toEqual(['alertWebhooks.0.kind: must be one of slack, discord, teams, http']);
    expect(
      problems(createMonitorBody, { url, alertWebhooks: [{ kind: 'http', url: 'http://10.0.0.5/hook' }] })[0],
    ).toMatch(/^alertWebhooks\.0\.url: must not point at a private address/);
  });

  it('refuses fields it does not know', () => {
    expect(problems(createMonitorBody, { url: 'https://example.com/', status: 'up' })[0]).toMatch(/status/);
  });
});

describe('updateMonitorBody', () => {
  it('keeps omitted fields omitted and checks the given ones by the same rules', () => {
    expect(updateMonitorBody.parse({ enabled: false })).toEqual({ enabled: false });
    expect(updateMonitorBody.parse({ name: null })).toEqual({ name: null });
    expect(problems(updateMonitorBody, { cadenceSeconds: 30 })).toEqual([
      'cadenceSeconds: must be one of 60, 300, 900, 1800, 3600',
    ]);
    expect(problems(updateMonitorBody, { enabled: 'false' })).toEqual(['enabled: must be true or false']);
  });
});

describe('monitorMetricsQuery', () => {
  it('reads hours from 1 to 2160, 24 by default', () => {
    expect(monitorMetricsQuery.parse({})).toEqual({ hours: 24 });
    expect(monitorMetricsQuery.parse({ hours: '1' })).toEqual({ hours: 1 });
    expect(monitorMetricsQuery.parse({ hours: '2160' })).toEqual({ hours: 2160 });
    expect(problems(monitorMetricsQuery, { hours: '0' })).toEqual(['hours: must be at least 1']);
    expect(problems(monitorMetricsQuery, { hours: '2161' })).toEqual([
      'hours: must be at most 2160 (90 days)',
    ]);
    expect(problems(monitorMetricsQuery, { hours: '1.5' })).toEqual([
      'hours: must be a whole number of hours',
    ]);
  });
});
