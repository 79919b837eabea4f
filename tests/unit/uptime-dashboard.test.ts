import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HourlyBucket, MonitorLive } from '@/components/api/types';
import { HealthBar } from '@/components/uptime/health-bar';
import { currentHourState, HOUR_MS, hourSlots, latencySeries, peakOf } from '@/components/uptime/hours';
import { bodyOf, checkDraft, draftOf, fieldLabel, fieldOfApiError } from '@/components/uptime/monitor-draft';
import { MonitorStatusBadge } from '@/components/uptime/monitor-status';
import { ProbePlaces } from '@/components/uptime/places';
import { ProbingNotice, resumedMessage } from '@/components/uptime/probing-notice';
import {
  currentLatency,
  errorBeyondVerdict,
  formatMs,
  formatPct,
  listRegions,
  parseIncidentRegions,
  probeVerdict,
  statusOf,
} from '@/components/uptime/words';

/*
 * Issue 14 item 7: the Uptime tab's readings of the API's answers — the 24-hour health bar, the
 * current latency, the status in words (a degraded monitor names its failing region), the form's
 * limits and where the API's errors land.
 */

const NOW = Date.UTC(2026, 10, 24, 15, 20);
const HOUR = Date.UTC(2026, 10, 24, 15); // the current, open hour

const bucket = (
  start: number,
  region: HourlyBucket['region'],
  total: number,
  failed: number,
  p50 = 100,
  p95 = 200,
) => ({ bucketStart: start, region, total, failed, p50Ms: p50, p95Ms: p95 }) satisfies HourlyBucket;

describe('health bar hours', () => {
  it('are the 23 closed hours before the current one, oldest first, then the hour in progress', () => {
    const slots = hourSlots([], [], NOW);
    expect(slots).toHaveLength(24);
    expect(slots[0]!.start).toBe(HOUR - 23 * HOUR_MS);
    expect(slots.at(-2)!.start).toBe(HOUR - HOUR_MS);
    expect(slots.at(-1)).toEqual({ start: HOUR, state: 'none', total: 0, failed: 0, current: true });
    expect(slots.every((s) => s.state === 'none')).toBe(true);
  });

  it('sum the regions of an hour, and tell failures without an incident from an incident', () => {
    const h1 = HOUR - HOUR_MS;
    const h2 = HOUR - 2 * HOUR_MS;
    const h3 = HOUR - 3 * HOUR_MS;
    const buckets = [
      ...(['na', 'eu', 'as', 'oc'] as const).map((r) => bucket(h1, r, 60, 0)),
      bucket(h2, 'na', 60, 0),
      bucket(h2, 'eu', 60, 5),
      bucket(h3, 'na', 60, 60),
      bucket(h3, 'eu', 60, 60),
    ];
    // An incident from the middle of h3 that recovered inside h2's first minute.
    const incidents = [{ down_at: h3 + 30 * 60_000, recovered_at: h2 + 30_000 }];
    const slots = hourSlots(buckets, incidents, NOW, 'up');
    expect(slots.at(-1)).toMatchObject({ start: HOUR, state: 'up', current: true });
    expect(slots.at(-2)).toEqual({ start: h1, state: 'up', total: 240, failed: 0 });
    expect(slots.at(-3)).toEqual({ start: h2, state: 'down', total: 120, failed: 5 });
    expect(slots.at(-4)).toEqual({ start: h3, state: 'down', total: 120, failed: 120 });
    expect(slots.at(-5)!.state).toBe('none');
  });

  it('mark every hour an open incident covers as down, the hour in progress included', () => {
    const slots = hourSlots([], [{ down_at: HOUR - HOUR_MS + 1, recovered_at: null }], NOW, 'failures');
    expect(slots.map((s) => s.state).slice(-3)).toEqual(['none', 'down', 'down']);
  });

  it('read the hour in progress from the latest round while it has no bucket', () => {
    expect(currentHourState({ status: 'up', last_checked_at: HOUR + 1 }, NOW)).toBe('up');
    expect(currentHourState({ status: 'degraded', last_checked_at: HOUR + 1 }, NOW)).toBe('failures');
    expect(currentHourState({ status: 'down', last_checked_at: HOUR + 1 }, NOW)).toBe('failures');
    // Checked last in an earlier hour (paused since), or never.
    expect(currentHourState({ status: 'up', last_checked_at: HOUR - 1 }, NOW)).toBe('none');
    expect(currentHourState({ status: 'unknown', last_checked_at: null }, NOW)).toBe('none');
  });

  it('say each hour in words, so the bar is not colour alone', () => {
    const h1 = HOUR - HOUR_MS;
    const html = renderToStaticMarkup(
      createElement(HealthBar, {
        slots: hourSlots([bucket(h1, 'na', 60, 2), bucket(h1, 'eu', 60, 0)], [], NOW, 'up'),
        label: 'Home: health per hour',
        createdAt: NOW - 2 * 86_400_000,
        lastCheckedAt: NOW - 60_000,
      }),
    );
    expect(html).toContain('<ol aria-label="Home: health per hour"');
    expect(html).toContain('Nov 24, 14:00 UTC: some checks failed (2 of 120 checks failed)');
    expect(html).toContain('Nov 24, 13:00 UTC: no checks');
    expect(html).toContain('Nov 24, 15:00 UTC (this hour, so far): latest round up');
    expect(html).toContain('1 h with failed checks · 22 h without checks');
  });

  it('a monitor added minutes ago waits for its first check, not "23 h without checks" (issue 24 item 11)', () => {
    const html = renderToStaticMarkup(
      createElement(HealthBar, {
        slots: hourSlots([], [], NOW, 'none'),
        label: 'New: health per hour',
        createdAt: NOW - 5 * 60_000,
        lastCheckedAt: null,
      }),
    );
    expect(html).toContain('Waiting for its first check');
    expect(html).not.toContain('without checks');
    expect(html).toContain('Nov 24, 14:00 UTC: before the monitor was added');
    expect(html).toContain('Nov 24, 15:00 UTC (this hour, so far): no checks yet');
  });

  it('counts only the hours since the monitor was added', () => {
    const h1 = HOUR - HOUR_MS;
    const html = renderToStaticMarkup(
      createElement(HealthBar, {
        // Added at 12:30: the 12:00 and 13:00 hours had no checks (paused), 14:00 was up.
        slots: hourSlots([bucket(h1, 'na', 60, 0)], [], NOW, 'up'),
        label: 'Recent: health per hour',
        createdAt: HOUR - 3 * HOUR_MS + 30 * 60_000,
        lastCheckedAt: NOW - 60_000,
      }),
    );
    expect(html).toContain('1 h without failures · 1 h without checks');
    expect(html).toContain('Nov 24, 12:00 UTC: before the monitor was added');
    expect(html).toContain('Nov 24, 13:00 UTC: no checks');
  });
});

describe('latency series', () => {
  const buckets = [
    bucket(HOUR - 2 * HOUR_MS, 'eu', 60, 0, 120, 480),
    bucket(HOUR - HOUR_MS, 'na', 60, 0, 90, 150),
    bucket(HOUR - 2 * HOUR_MS, 'na', 60, 0, 80, 140),
    { ...bucket(HOUR - HOUR_MS, 'eu', 60, 60), p50Ms: null, p95Ms: null },
  ];

  it('puts each region of an hour side by side, oldest hour first, null where a region has no figure', () => {
    expect(latencySeries(buckets, 'p95Ms')).toEqual([
      { bucketStart: HOUR - 2 * HOUR_MS, na: 140, eu: 480, as: null, oc: null },
      { bucketStart: HOUR - HOUR_MS, na: 150, eu: null, as: null, oc: null },
    ]);
    expect(latencySeries(buckets, 'p50Ms')[0]).toMatchObject({ na: 80, eu: 120 });
  });

  it('finds the peak and where it was', () => {
    expect(peakOf(latencySeries(buckets, 'p95Ms'))).toEqual({
      ms: 480,
      region: 'eu',
      at: HOUR - 2 * HOUR_MS,
    });
    expect(peakOf([])).toBeNull();
  });
});

const probe = (ok: boolean, totalMs: number) => ({
  region: 'na' as const,
  roundAt: NOW,
  checkedAt: NOW,
  ok,
  statusCode: ok ? 200 : 503,
  totalMs,
  phases: { dnsMs: 1, connectMs: 1, tlsMs: null, firstByteMs: 5 },
  tlsCertExpiresAt: null,
  cause: ok ? null : ('http_5xx' as const),
  error: ok ? null : 'HTTP 503',
  attempts: 1 as const,
});

describe('current latency', () => {
  it("is the median of the regions' latest successful probes", () => {
    const regions: MonitorLive['regions'] = [
      { region: 'na', probe: probe(true, 100) },
      { region: 'eu', probe: probe(true, 300) },
      { region: 'as', probe: probe(false, 9000) },
      { region: 'oc', probe: probe(true, 200) },
    ];
    expect(currentLatency(regions)).toEqual({ ms: 200, regions: 3 });
    expect(currentLatency(regions.slice(0, 2))).toEqual({ ms: 200, regions: 2 });
    expect(currentLatency([{ region: 'na', probe: null }])).toBeNull();
  });
});

describe('monitor status in words', () => {
  const consensus = {
    at: NOW,
    status: 'degraded' as const,
    failedRegions: ['eu' as const],
    slowRegions: [],
    cause: 'timeout' as const,
    degradedBy: 'region' as const,
    slowThresholdMs: 2000,
  };
  const probing = { active: true, pausedBy: null, alsoPausedBy: [], nextRoundAt: NOW + 60_000 };

  it('names the failing region of a degraded monitor, or says it is slow', () => {
    expect(statusOf({ enabled: 1, status: 'degraded' }, { probing, consensus })).toMatchObject({
      label: 'Degraded',
      detail: 'failing in Europe',
    });
    expect(
      statusOf(
        { enabled: 1, status: 'degraded' },
        { probing, consensus: { ...consensus, failedRegions: [], degradedBy: 'slow' } },
      ).detail,
    ).toBe('slower than 2.0 s');
    const badge = createElement(MonitorStatusBadge, {
      monitor: { enabled: 1, status: 'degraded' },
      live: { probing, consensus },
    });
    // Continents only where the probes ran there (hosted regions); from this one server, numbered probes.
    const within = (probedFrom: 'regions' | 'server') =>
      // biome-ignore lint/correctness/noChildrenProp: the provider's props type requires children (no JSX in a .ts test)
      renderToStaticMarkup(createElement(ProbePlaces, { probedFrom, children: badge }));
    expect(within('regions')).toContain('Degraded: failing in Europe');
    const fromServer = within('server');
    expect(fromServer).toContain('Degraded: failing in Probe 2');
    expect(fromServer).not.toContain('Europe');
  });

  it('puts a pause and the app being off before the stored status', () => {
    expect(statusOf({ enabled: 0, status: 'down' }).label).toBe('Paused');
    expect(
      statusOf({ enabled: 1, status: 'up' }, { probing: { ...probing, pausedBy: 'app' }, consensus: null }),
    ).toMatchObject({ label: 'Stopped', detail: 'the Uptime app is off' });
    expect(
      statusOf(
        { enabled: 1, status: 'up' },
        { probing: { ...probing, pausedBy: 'allowance' }, consensus: null },
      ),
    ).toMatchObject({ label: 'Held', detail: 'past the monitor allowance', tone: 'neutral' });
    expect(statusOf({ enabled: 1, status: 'unknown' }).label).toBe('Not checked yet');
    expect(statusOf({ enabled: 1, status: 'unknown', kind: 'heartbeat' }).label).toBe(
      'Waiting for the first ping',
    );
    expect(
      statusOf(
        { enabled: 1, status: 'down' },
        { probing, consensus: { ...consensus, status: 'down', failedRegions: ['na', 'eu', 'as'] } },
      ).detail,
    ).toBe('failing in North America, Europe and Asia');
  });
});

describe('formats', () => {
  it('never rounds a share with downtime up to 100%', () => {
    expect(formatPct(99.996)).toBe('99.99%');
    expect(formatPct(100)).toBe('100%');
    expect(formatPct(null)).toBe('—');
  });

  it('reads milliseconds and region lists', () => {
    expect(formatMs(84.4)).toBe('84 ms');
    expect(formatMs(1234)).toBe('1.2 s');
    expect(formatMs(null)).toBe('—');
    expect(listRegions(['na', 'oc'])).toBe('North America and Oceania');
  });

  it('says what a probe found without repeating a status code', () => {
    expect(probeVerdict({ ok: false, cause: 'http_5xx', statusCode: 503 })).toBe('Failed: HTTP 503');
    expect(probeVerdict({ ok: false, cause: 'timeout', statusCode: null })).toBe(
      'Failed: no answer within the timeout',
    );
    expect(probeVerdict({ ok: false, cause: 'redirect', statusCode: 301 })).toBe(
      'Failed: redirect loop or too many redirects (HTTP 301)',
    );
    expect(probeVerdict({ ok: true, cause: null, statusCode: 200 })).toBe('OK (HTTP 200)');
    const tls = {
      ok: false,
      cause: 'tls' as const,
      statusCode: null,
      error: 'the certificate is self-signed',
    };
    expect(errorBeyondVerdict(tls)).toBe('the certificate is self-signed');
    expect(errorBeyondVerdict({ ...tls, cause: 'http_4xx', statusCode: 404, error: 'HTTP 404' })).toBeNull();
  });

  it("reads an incident's region snapshot and leaves out what it cannot read", () => {
    const json = JSON.stringify([
      { region: 'na', ok: false, status: 503, totalMs: 40, cause: 'http_5xx', error: 'HTTP 503' },
      { region: 'mars', ok: true },
      'nonsense',
      { region: 'eu', ok: true, status: 200, totalMs: 120, cause: null, error: null },
    ]);
    expect(parseIncidentRegions(json).map((r) => [r.region, r.ok, r.cause])).toEqual([
      ['na', false, 'http_5xx'],
      ['eu', true, null],
    ]);
    expect(parseIncidentRegions('{not json')).toEqual([]);
    expect(parseIncidentRegions(null)).toEqual([]);
  });
});

describe('monitor form', () => {
  const valid = { ...draftOf(), url: 'https://example.com/health' };

  it("starts from the spec's defaults: every minute, 10 s timeout", () => {
    expect(draftOf()).toMatchObject({ cadenceSeconds: '60', timeoutSeconds: '10' });
    expect(checkDraft(valid)).toEqual({});
  });

  it("checks the spec's limits before sending", () => {
    const errors = checkDraft({
      ...valid,
      url: 'ftp://example.com',
      name: 'n'.repeat(101),
      timeoutSeconds: '31',
      alertEmails: Array.from({ length: 11 }, (_, i) => `a${i}@example.com`).join('\n'),
      alertWebhooks: [
        { kind: 'slack', url: 'https://hooks.example.com/1' },
        { kind: 'http', url: '' },
      ],
    });
    expect(errors).toEqual({
      url: 'must be a full address starting with http:// or https://',
      name: 'must be at most 100 characters (it has 101)',
      timeoutSeconds: 'must be a whole number of seconds from 1 to 30',
      alertEmails: 'must list at most 10 addresses (it lists 11)',
      'alertWebhooks.1': 'is required',
    });
    expect(checkDraft({ ...valid, timeoutSeconds: '0' }).timeoutSeconds).toBeDefined();
    expect(checkDraft({ ...valid, timeoutSeconds: '2.5' }).timeoutSeconds).toBeDefined();
    expect(checkDraft({ ...valid, timeoutSeconds: '30', name: 'n'.repeat(100) })).toEqual({});
    expect(checkDraft({ ...valid, alertEmails: 'ops@example.com\nnope' }).alertEmails).toContain('“nope”');
    expect(
      checkDraft({
        ...valid,
        alertWebhooks: Array.from({ length: 6 }, () => ({ kind: 'teams', url: 'https://t.example.com' })),
      }).alertWebhooks,
    ).toBe('must be at most 5');
  });

  it('sends trimmed values, a blank name as null, one email per line', () => {
    expect(
      bodyOf({
        ...valid,
        url: '  https://example.com/health ',
        name: '   ',
        cadenceSeconds: '300',
        alertEmails: ' ops@example.com \n\n dev@example.com',
        alertWebhooks: [{ kind: 'discord', url: ' https://discord.example.com/x ' }],
      }),
    ).toEqual({
      url: 'https://example.com/health',
      name: null,
      cadenceSeconds: 300,
      timeoutSeconds: 10,
      alertEmails: ['ops@example.com', 'dev@example.com'],
      alertWebhooks: [{ kind: 'discord', url: 'https://discord.example.com/x' }],
      expectedStatuses: [],
      keyword: null,
      keywordAbsent: false,
    });
  });

  it('sends a heartbeat as its kind with period and grace in seconds, and its expectations for an http monitor', () => {
    const heartbeat = {
      ...draftOf(),
      kind: 'heartbeat' as const,
      name: 'Backup',
      periodMinutes: '1440',
      graceMinutes: '30',
    };
    expect(checkDraft(heartbeat)).toEqual({});
    expect(bodyOf(heartbeat)).toEqual({
      kind: 'heartbeat',
      name: 'Backup',
      alertEmails: [],
      alertWebhooks: [],
      periodSeconds: 86_400,
      graceSeconds: 1800,
    });
    // Edited, the kind is not sent (it is fixed at creation).
    expect(bodyOf(heartbeat, false)).not.toHaveProperty('kind');
    expect(checkDraft({ ...heartbeat, periodMinutes: '0', graceMinutes: '-1' })).toEqual({
      periodMinutes: 'must be a whole number of minutes from 1 to 43200 (30 days)',
      graceMinutes: 'must be a whole number of minutes from 0 to 10080 (7 days)',
    });
    const http = { ...valid, expectedStatuses: '200-299, 401', keyword: 'Error', keywordAbsent: true };
    expect(bodyOf(http)).toMatchObject({
      expectedStatuses: ['200-299', '401'],
      keyword: 'Error',
      keywordAbsent: true,
    });
    expect(checkDraft({ ...valid, expectedStatuses: '200, 299-200' }).expectedStatuses).toContain(
      '“299-200”',
    );
    expect(fieldOfApiError('periodSeconds: must be at least 60 (a minute)').field).toBe('periodMinutes');
  });

  it("puts the API's field errors under the field they name", () => {
    expect(fieldOfApiError('timeoutSeconds: must be at most 30')).toEqual({
      field: 'timeoutSeconds',
      text: 'must be at most 30',
    });
    expect(fieldOfApiError('alertWebhooks.1.url: must use http or https')).toEqual({
      field: 'alertWebhooks.1',
      text: 'must use http or https',
    });
    expect(fieldOfApiError('alertEmails.2: must be an email address')).toEqual({
      field: 'alertEmails',
      text: 'line 3: must be an email address',
    });
    expect(fieldOfApiError('alertWebhooks: must have at most 5 webhooks').field).toBe('alertWebhooks');
    expect(fieldOfApiError('body: unknown key').field).toBeNull();
    expect(fieldOfApiError('included uptime monitors used up').field).toBeNull();
    expect(fieldLabel('alertWebhooks.1')).toBe('Webhook 2 URL');
  });
});

describe('why a monitor is not probed (the monitor page)', () => {
  const probing = (
    pausedBy: 'monitor' | 'app' | 'allowance' | null,
    alsoPausedBy: ('app' | 'allowance')[] = [],
  ) => ({
    active: pausedBy === null,
    pausedBy,
    alsoPausedBy,
    nextRoundAt: null,
  });
  const notice = (p: ReturnType<typeof probing>, canManage = true) =>
    renderToStaticMarkup(
      createElement(ProbingNotice, { probing: p, siteId: 's1', canManage, monitorsPerSite: 2 }),
    );

  it('says a paused monitor is also stopped with the app, or held, so Resume alone does not probe', () => {
    const alone = notice(probing('monitor'));
    expect(alone).toContain('Paused');
    // From this one server (no hosted regions, the default here): no region to resume from.
    expect(alone).toContain('Resume it to probe again with all four probes at once.');
    const hosted = renderToStaticMarkup(
      createElement(ProbePlaces, {
        probedFrom: 'regions',
        // biome-ignore lint/correctness/noChildrenProp: the provider's props type requires children (no JSX in a .ts test)
        children: createElement(ProbingNotice, {
          probing: probing('monitor'),
          siteId: 's1',
          canManage: true,
          monitorsPerSite: 2,
        }),
      }),
    );
    expect(hosted).toContain('Resume it to probe again from every region at once.');
    expect(alone).not.toContain('also');

    const withApp = notice(probing('monitor', ['app']));
    expect(withApp).toContain('Uptime app is also off, so resumed it stays stopped until the app is on');
    expect(withApp).toContain('href="/sites/s1/settings"');
    expect(withApp).not.toContain('Resume it to probe again');

    const held = notice(probing('monitor', ['allowance']));
    expect(held).toContain('It is also past the monitor allowance, so it stays held');
    expect(held).toContain('href="/billing"');
    // A member is told who can act, and offered no link.
    expect(notice(probing('monitor', ['app']), false)).toContain('An owner or admin can turn it on');
  });

  it('says an app-off monitor past the allowance stays held once the app is on; nothing while probed', () => {
    const html = notice(probing('app', ['allowance']));
    expect(html).toContain('Not probing: the Uptime app is off for this site');
    expect(html).toContain('It is also past the monitor allowance');
    expect(notice(probing('allowance'))).toContain('Not probing: past the monitor allowance');
    expect(notice(probing(null))).toBe('');
  });

  it('tells what Resume did from the state it was pressed in', () => {
    expect(resumedMessage(probing('monitor'))).toBe('Monitor resumed: every region probes it now.');
    expect(resumedMessage(probing('monitor'), 'probe')).toBe(
      'Monitor resumed: all four probes check it now.',
    );
    expect(resumedMessage(probing('monitor', ['app']))).toContain('once the Uptime app is on');
    expect(resumedMessage(probing('monitor', ['allowance']))).toContain('stays held');
  });
});
