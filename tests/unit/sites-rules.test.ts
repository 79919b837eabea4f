import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { createSiteBody, siteIdParams, updateSiteBody } from '@/lib/api/schemas/sites';
import { MAX_EXCLUDE_PATHS, MAX_EXCLUDE_PATHS_LENGTH, MAX_EXCLUDE_WILDCARDS } from '@/lib/crawl/engine/url';
import { checkCadence } from '@/lib/sites/cadence';
import { parseRootUrl } from '@/lib/sites/root-url';
import { initialSchedule, rescheduleAfterEdit, type ScheduleInputs } from '@/lib/sites/schedule';

const MIN = 60_000;
const NOW = 1_800_000_000_000;

describe('checkCadence', () => {
  it('accepts the floor and above whatever is stored', () => {
    expect(checkCadence(1440, null)).toBeNull();
    expect(checkCadence(1440, 60)).toBeNull();
    expect(checkCadence(50_000, 10_080)).toBeNull();
  });

  it('refuses below the floor for a site stored at or above it', () => {
    expect(checkCadence(1439, 10_080)).toBe('must be at least 1440');
    expect(checkCadence(1439, 1440)).toBe('must be at least 1440');
    expect(checkCadence(60, null)).toBe('must be at least 1440');
  });

  it('lets a below-floor site keep or slow its cadence, never go more frequent', () => {
    expect(checkCadence(60, 60)).toBeNull();
    expect(checkCadence(61, 60)).toBeNull();
    expect(checkCadence(59, 60)).toMatch(/^must be at least 1440, or at least this site's current 60/);
  });
});

describe('parseRootUrl', () => {
  it('normalizes the URL and derives the hostname', () => {
    expect(parseRootUrl(' https://WWW.Example.com:443/a/b?q=1#frag ')).toEqual({
      rootUrl: 'https://www.example.com/a/b?q=1',
      hostname: 'www.example.com',
    });
    expect(parseRootUrl('http://example.com.:8080')).toEqual({
      rootUrl: 'http://example.com.:8080/',
      hostname: 'example.com',
    });
    expect(parseRootUrl('http://[::1]/')).toEqual({ rootUrl: 'http://[::1]/', hostname: '[::1]' });
  });

  it('refuses anything but an absolute http(s) URL with a host and no credentials', () => {
    expect(parseRootUrl('ftp://example.com')).toBe('must use http or https, not ftp');
    expect(parseRootUrl('javascript:alert(1)')).toBe('must use http or https, not javascript');
    expect(parseRootUrl('example.com')).toMatch(/absolute http\(s\) URL/);
    expect(parseRootUrl('')).toMatch(/http\(s\) URL/);
    expect(parseRootUrl('https://u:p@example.com')).toBe('must not contain a user name or password');
    expect(parseRootUrl(`https://example.com/${'a'.repeat(2048)}`)).toBe('must be at most 2048 characters');
  });
});

const site = (over: Partial<ScheduleInputs> = {}): ScheduleInputs => ({
  scanner_enabled: 1,
  a11y_enabled: 0,
  cadence_minutes: 10_080,
  a11y_cadence_minutes: null,
  last_run_at: null,
  next_run_at: NOW - 5 * MIN,
  a11y_next_run_at: null,
  ...over,
});

describe('initialSchedule', () => {
  it('makes the first crawl due at once when a crawl app is on', () => {
    expect(initialSchedule(site(), NOW)).toEqual({ enabled: 1, next_run_at: NOW, a11y_next_run_at: null });
    expect(
      initialSchedule(site({ scanner_enabled: 0, a11y_enabled: 1, a11y_cadence_minutes: 43_200 }), NOW),
    ).toEqual({
      enabled: 1,
      next_run_at: NOW,
      a11y_next_run_at: NOW + 43_200 * MIN,
    });
    expect(initialSchedule(site({ scanner_enabled: 0 }), NOW)).toEqual({
      enabled: 0,
      next_run_at: null,
      a11y_next_run_at: null,
    });
  });
});

describe('rescheduleAfterEdit', () => {
  const LAST = NOW - 2 * 24 * 60 * MIN;

  it('unschedules only when both crawl apps are off', () => {
    const before = site({ a11y_enabled: 1, a11y_next_run_at: NOW + MIN });
    expect(rescheduleAfterEdit(before, { ...before, scanner_enabled: 0 }, null, NOW)).toMatchObject({
      enabled: 1,
      next_run_at: before.next_run_at,
    });
    expect(
      rescheduleAfterEdit(before, { ...before, scanner_enabled: 0, a11y_enabled: 0 }, null, NOW),
    ).toEqual({
      enabled: 0,
      next_run_at: null,
      a11y_next_run_at: null,
    });
  });

  it('schedules the first crawl app turned on: at once if never ran, else a cadence after the last run', () => {
    const off = site({ scanner_enabled: 0, next_run_at: null });
    expect(rescheduleAfterEdit(off, { ...off, scanner_enabled: 1 }, null, NOW)).toMatchObject({
      enabled: 1,
      next_run_at: NOW,
    });
    const ran = { ...off, last_run_at: LAST };
    expect(rescheduleAfterEdit(ran, { ...ran, scanner_enabled: 1 }, null, NOW)).toMatchObject({
      next_run_at: LAST + 10_080 * MIN,
    });
  });

  it('recomputes the next crawl from the last run on a cadence change, keeps it for a site that never ran', () => {
    const ran = site({ last_run_at: LAST, next_run_at: LAST + 10_080 * MIN });
    expect(rescheduleAfterEdit(ran, { ...ran, cadence_minutes: 1440 }, null, NOW).next_run_at).toBe(
      LAST + 1440 * MIN,
    );
    const fresh = site();
    expect(rescheduleAfterEdit(fresh, { ...fresh, cadence_minutes: 1440 }, null, NOW).next_run_at).toBe(
      fresh.next_run_at,
    );
    expect(rescheduleAfterEdit(ran, { ...ran }, null, NOW).next_run_at).toBe(ran.next_run_at);
  });

  it('runs the accessibility clock on its own cadence', () => {
    const before = site({ last_run_at: LAST });
    const on = { ...before, a11y_enabled: 1 as const, a11y_cadence_minutes: 43_200 };
    // Crawled before, never scanned: scan the stored pages at once.
    expect(rescheduleAfterEdit(before, on, null, NOW).a11y_next_run_at).toBe(NOW);
    // Scanned before: one cadence after that scan.
    expect(rescheduleAfterEdit(before, on, LAST, NOW).a11y_next_run_at).toBe(LAST + 43_200 * MIN);
    // Never crawled: the first crawl chains the pass.
    const fresh = site();
    expect(
      rescheduleAfterEdit(fresh, { ...fresh, a11y_enabled: 1, a11y_cadence_minutes: 43_200 }, null, NOW)
        .a11y_next_run_at,
    ).toBe(NOW + 43_200 * MIN);
    // Cadence change: from the last scan; a null cadence follows the crawl cadence.
    const scanning = { ...on, a11y_next_run_at: LAST + 43_200 * MIN };
    expect(
      rescheduleAfterEdit(scanning, { ...scanning, a11y_cadence_minutes: 2880 }, LAST, NOW).a11y_next_run_at,
    ).toBe(LAST + 2880 * MIN);
    expect(
      rescheduleAfterEdit(scanning, { ...scanning, a11y_cadence_minutes: null }, LAST, NOW).a11y_next_run_at,
    ).toBe(LAST + 10_080 * MIN);
  });
});

describe('site request schemas', () => {
  it('maps a malformed path id to 404 site not found, not 422', () => {
    for (const id of ['nope', '../etc', '1234', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1']) {
      let thrown: unknown;
      try {
        siteIdParams.safeParse({ id });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, id).toBeInstanceOf(ApiError);
      expect(thrown).toMatchObject({ status: 404, message: 'site not found' });
    }
    expect(siteIdParams.parse({ id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' })).toEqual({
      id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    });
  });

  it('clamps maxConcurrency and bounds maxPages', () => {
    const parse = (body: object) => createSiteBody.safeParse({ rootUrl: 'https://example.com', ...body });
    expect(parse({ maxConcurrency: 0 }).data?.maxConcurrency).toBe(2);
    expect(parse({ maxConcurrency: 201 }).data?.maxConcurrency).toBe(200);
    expect(parse({ maxConcurrency: 150 }).data?.maxConcurrency).toBe(150);
    expect(parse({ maxPages: 100_000 }).success).toBe(true);
    expect(parse({ maxPages: 100_001 }).success).toBe(false);
  });

  it('refuses maxPages and maxConcurrency in an edit whatever their value', () => {
    for (const value of [1, 5000, null, 'x']) {
      const parsed = updateSiteBody.safeParse({ maxPages: value });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['maxPages']);
    }
    expect(updateSiteBody.safeParse({ seoEnabled: true }).success).toBe(true);
  });

  it('refuses a malformed exclude glob, naming the entry and the reason', () => {
    const parsed = updateSiteBody.safeParse({ excludePaths: ['/ok/**', '/docs/[a-z'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['excludePaths', 1],
      message: 'is not a valid glob pattern: a [ is never closed',
    });
  });

  it('bounds the characters of all exclude globs together, since matching cost grows with them', () => {
    const entry = (i: number, length: number) => `/${String(i).padStart(3, '0')}/${'x'.repeat(length - 5)}`;
    const atLimit = Array.from({ length: MAX_EXCLUDE_PATHS }, (_, i) =>
      entry(i, MAX_EXCLUDE_PATHS_LENGTH / MAX_EXCLUDE_PATHS),
    );
    expect(atLimit.join('')).toHaveLength(MAX_EXCLUDE_PATHS_LENGTH);
    expect(createSiteBody.safeParse({ rootUrl: 'https://example.com', excludePaths: atLimit }).success).toBe(
      true,
    );
    const over = [...atLimit.slice(1), entry(0, MAX_EXCLUDE_PATHS_LENGTH / MAX_EXCLUDE_PATHS + 1)];
    const parsed = updateSiteBody.safeParse({ excludePaths: over });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['excludePaths'],
      message: `must have at most ${MAX_EXCLUDE_PATHS_LENGTH} characters in all (has ${MAX_EXCLUDE_PATHS_LENGTH + 1})`,
    });
  });

  it('bounds the wildcards of all exclude globs together, since each can keep a state alive along a path', () => {
    // 3 each: the implied leading **, the * and the ?; escaped ones are literal.
    const floating = (i: number) => `p${i}/*.htm? \\*`;
    // A trailing * or ** is free: it only comes alive once the rest of its pattern matched.
    const atLimit = [...Array.from({ length: 33 }, (_, i) => floating(i)), '/last/*/x', '/tail/**', '/end/*'];
    expect(createSiteBody.safeParse({ rootUrl: 'https://example.com', excludePaths: atLimit }).success).toBe(
      true,
    );
    const parsed = updateSiteBody.safeParse({ excludePaths: [...atLimit, '/one/[ab]'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['excludePaths'],
      message: `must have at most ${MAX_EXCLUDE_WILDCARDS} wildcards (*, **, ?, [...]) in all, counting one for each pattern that does not start with / and none for a trailing * or ** (has ${MAX_EXCLUDE_WILDCARDS + 1})`,
    });
  });

  it('de-duplicates list entries keeping the first occurrence', () => {
    const parsed = updateSiteBody.parse({
      excludePaths: ['/a', '/b ', '/a', '/b'],
      stripParams: ['x', 'y', 'x'],
    });
    expect(parsed.excludePaths).toEqual(['/a', '/b']);
    expect(parsed.stripParams).toEqual(['x', 'y']);
  });
});
