import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { startServer, type TestServer } from '../support/http-server';
import { bothWidths, settled } from './support/page';
import { snap } from './support/snap';

/*
 * One truth on the crawl page and the monitor page (issue 24 items 4 and 5), in Chromium, against a
 * real site on 127.0.0.11 (an address playwright.config.ts lets the e2e server reach).
 *
 * Crawl page: the live panel and the History row read the same run row, so while a crawl waits on
 * its last page (held by the site) a fresh page shows the same pages, links and broken links in
 * both, and while the crawl ends the panel never says "found so far" above a finished History row.
 *
 * Monitor page: the target answers 503, then 200 again. The rounds are the embedded server's own
 * (its round loop, on the monitor's 60 s cadence: no test hook, no backdoor): the first fires when
 * the monitor is created, the next between 30 and 90 s later, then every 60 s, and an incident
 * closes after two healthy rounds. So the recovery takes at most about 150 s after the target
 * answers again, and the waits are bounded by that. While down: status, banner and incident agree
 * and the percentages count the ongoing incident; while the recovery is confirmed (one healthy
 * round) the page says so everywhere, never "Up" beside "Down since … ongoing"; once recovered,
 * the incident has an end. The four windows cover the same life, so they show the same figure.
 */
test.describe.configure({ mode: 'serial' });

const HOST = '127.0.0.11';
const html = (title: string, body: string) => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`,
});

let site: TestServer;
let siteId = '';
let monitorId = '';
/** The held page's waiting responses, answered when the test lets the crawl finish. */
const held: ServerResponse[] = [];
let holding = true;
let healthy = false;

const heldPage = html('Held', '<p>answered at last</p>');
function slow(_req: IncomingMessage, res: ServerResponse) {
  const answer = () => res.writeHead(200, heldPage.headers).end(heldPage.body);
  if (holding) held.push(res);
  else answer();
}

/**
 * Calls `check` about every `intervalMs` until it returns true, at most `timeoutMs`. Unlike
 * expect.poll, a failed assertion inside `check` fails at once: an instant where the page
 * contradicts itself must not be retried away.
 */
async function until(check: () => Promise<boolean>, timeoutMs: number, intervalMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

test.beforeAll(async () => {
  site = await startServer(HOST, {
    '/': html(
      'Truth home',
      '<a href="/a">A</a> <a href="/b">B</a> <a href="/slow">Slow</a> <a href="/gone">Gone</a>',
    ),
    '/a': html('Truth A', '<a href="/c">C</a> <a href="/gone-too">Gone too</a>'),
    '/b': html('Truth B', '<a href="/">Home</a>'),
    '/c': html('Truth C', '<a href="/a">A</a>'),
    '/slow': slow,
    '/health': (_req, res) => {
      res.writeHead(healthy ? 200 : 503, { 'content-type': 'text/plain' }).end(healthy ? 'ok' : 'down');
    },
  });
});

test.afterAll(async () => {
  holding = false;
  for (const res of held) res.end();
  await site?.close();
});

type Counters = { pages: number; links: number; broken: number };
type CrawlTruth = {
  panel: (Counters & { mode: 'live' | 'summary'; label: string }) | { mode: 'none' };
  history: (Counters & { state: string }) | null;
};

/** The crawl panel and the newest History row at one instant: one synchronous read of the DOM. */
function readCrawlPage(page: Page): Promise<CrawlTruth> {
  return page.evaluate(() => {
    const num = (s: string | null | undefined) => Number((s ?? '').replace(/[^\d]/g, ''));
    const section = document.querySelector('section[aria-labelledby="crawl-title"]');
    const stat = (label: string) => {
      for (const dt of section?.querySelectorAll('dt') ?? []) {
        if (dt.textContent?.trim() === label) return num(dt.nextElementSibling?.textContent);
      }
      return Number.NaN;
    };
    let panel: CrawlTruth['panel'] = { mode: 'none' };
    const progress = section?.querySelector('label[for="crawl-progress"]');
    if (progress) {
      const label = progress.textContent ?? '';
      const checked = /URLs checked: ([\d,]+) of/.exec(label)?.[1];
      panel = {
        mode: 'live',
        label,
        pages: stat('Pages crawled'),
        links: checked === undefined ? 0 : num(checked),
        broken: stat('Broken so far'),
      };
    } else if (section?.querySelector('dt')) {
      panel = {
        mode: 'summary',
        label: '',
        pages: stat('Pages crawled'),
        links: stat('Links checked'),
        broken: stat('Broken links'),
      };
    }
    const table = [...document.querySelectorAll('table')].find((t) =>
      t.querySelector('caption')?.textContent?.includes('Run history'),
    );
    let history: CrawlTruth['history'] = null;
    const row = table?.querySelector('tbody tr');
    if (table && row) {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
      const cells = [...row.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '');
      const cell = (h: string) => cells[headers.indexOf(h)] ?? '';
      history = {
        state: cell('State'),
        pages: num(cell('Pages')),
        links: num(cell('Links')),
        broken: num(cell('Broken')),
      };
    }
    return { panel, history };
  });
}

type SiteStatus = {
  live: { state: string; pagesCrawled: number; linksChecked: number; brokenCount: number; pending: number };
  latestRun: { state: string; pages_crawled: number; links_checked: number; broken_count: number } | null;
};
const siteStatus = async (page: Page) =>
  (await (await page.request.get(`/v1/sites/${siteId}/status`)).json()) as SiteStatus;

test('a local site: the crawl panel and the History row read the same counters, during and after', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const res = await page.request.post('/v1/sites', {
    data: {
      rootUrl: site.url('/'),
      scannerEnabled: true,
      seoEnabled: false,
      a11yEnabled: false,
      performanceEnabled: false,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  siteId = ((await res.json()) as { site: { id: string } }).site.id;

  await page.goto(`/sites/${siteId}`);
  await settled(page);
  // The first crawl is due at once: the minute scheduler may have started it already.
  const crawlButton = page.getByRole('button', { name: /^(Crawl now|Crawling…)$/ });
  if ((await crawlButton.textContent()) === 'Crawl now') await crawlButton.click();

  // Everything but the held page is done: the counters stand still while its request waits (the
  // crawler's timeout, then its retries, keep it in flight for longer than this takes).
  await expect.poll(() => site.hits('/slow'), { timeout: 90_000 }).toBeGreaterThan(0);
  let stable = '';
  await expect
    .poll(
      async () => {
        const { live } = await siteStatus(page);
        const now = `${live.state}:${live.pagesCrawled}:${live.linksChecked}:${live.brokenCount}:${live.pending}`;
        const same = now === stable && live.state === 'crawling' && live.pending === 0;
        stable = now;
        return same;
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(true);

  // A fresh page during the crawl: the History row is rendered on the server, the panel from the
  // status endpoint a moment later; both read the same running run row.
  await page.reload();
  await settled(page);
  await expect(page.getByText(/found so far/)).toBeVisible();
  const during = await readCrawlPage(page);
  expect(during.panel.mode).toBe('live');
  expect(during.history?.state).toBe('running');
  const { live } = await siteStatus(page);
  const expected = { pages: live.pagesCrawled, links: live.linksChecked, broken: live.brokenCount };
  expect(expected.pages).toBeGreaterThanOrEqual(4);
  expect(expected.broken).toBe(2);
  expect(during.panel).toMatchObject(expected);
  expect(during.history).toMatchObject(expected);
  // Quick: the held page's retries run out in about 30 s (axe runs on the finished page below).
  await snap(page, 'truth-crawl-running');

  // The crawl ends while the page watches: it must never show live progress above a finished row.
  holding = false;
  for (const r of held.splice(0)) r.writeHead(200, heldPage.headers).end(heldPage.body);
  const seen: CrawlTruth[] = [];
  await until(
    async () => {
      const now = await readCrawlPage(page);
      seen.push(now);
      if (now.history?.state === 'completed') {
        expect(now.panel.mode, `panel beside a completed History row: ${JSON.stringify(now)}`).toBe(
          'summary',
        );
      }
      return now.history?.state === 'completed' && now.panel.mode === 'summary';
    },
    90_000,
    250,
    'the crawl to end on the page',
  );
  const after = seen.at(-1)!;
  const { latestRun } = await siteStatus(page);
  expect(latestRun?.state).toBe('completed');
  const finished = {
    pages: latestRun!.pages_crawled,
    links: latestRun!.links_checked,
    broken: latestRun!.broken_count,
  };
  // The held page was crawled too.
  expect(finished.pages).toBe(expected.pages + 1);
  expect(finished.broken).toBe(2);
  expect(after.panel).toMatchObject(finished);
  expect(after.history).toMatchObject(finished);
  await expect(page.getByText(/found so far/)).toHaveCount(0);
  await bothWidths(page, 'truth-crawl-finished', 'crawl page after the crawl');
  // The same again on a fresh page.
  await page.reload();
  await settled(page);
  const reloaded = await readCrawlPage(page);
  expect(reloaded.panel).toMatchObject(finished);
  expect(reloaded.history).toMatchObject({ ...finished, state: 'completed' });
});

type MonitorTruth = {
  badge: string;
  since: string | null;
  banners: string[];
  incident: string | null;
  windows: string[];
};

/** Status, banners, the newest incident and the four uptime figures at one instant. */
function readMonitorPage(page: Page, name: string): Promise<MonitorTruth> {
  return page.evaluate((name) => {
    const main = document.querySelector('main')!;
    const heading = [...main.querySelectorAll('h2')].find((h) => h.textContent?.trim() === name);
    const statusBox = heading?.parentElement?.parentElement?.children[1];
    const badge = statusBox?.querySelector('span > span:last-child')?.textContent?.trim() ?? '';
    const since = statusBox?.querySelector('p')?.textContent?.trim() ?? null;
    const banners = [...main.querySelectorAll('[role="alert"], [role="status"]')]
      .map((b) => b.textContent?.trim() ?? '')
      .filter((t) => t !== '');
    const incident =
      main.querySelector('ol[aria-label="Incidents, newest first"] > li > p')?.textContent?.trim() ?? null;
    const windows = [...main.querySelectorAll('section[aria-labelledby="uptime-title"] dl > div')].map(
      (d) => d.querySelector('dd')?.textContent?.trim() ?? '',
    );
    return { badge, since, banners, incident, windows };
  }, name);
}

const pct = (s: string) => Number(s.replace('%', ''));

/** What must hold at every instant, whatever the round: the parts of the page tell one story. */
function expectOneStory(t: MonitorTruth) {
  const story = JSON.stringify(t);
  const downBanner = t.banners.some((b) => b.startsWith('Down since'));
  const recoveringBanner = t.banners.some((b) => b.startsWith('Answering again since'));
  // Four windows over the same few minutes of life: one figure, one rounding.
  expect(t.windows, story).toHaveLength(4);
  expect(new Set(t.windows).size, story).toBe(1);
  if (downBanner) {
    expect(t.badge, story).toMatch(/^Down/);
    expect(t.incident, story).toMatch(/^Ongoing: down/);
  }
  if (/^(Up|Degraded)/.test(t.badge)) {
    // Never "Up since …" beside "Down since … ongoing".
    expect(downBanner, story).toBe(false);
    if (t.incident?.startsWith('Recovering') || t.incident?.startsWith('Ongoing')) {
      expect(recoveringBanner, story).toBe(true);
      expect(t.incident, story).toMatch(/^Recovering: down/);
    }
  }
  if (recoveringBanner) expect(t.incident, story).toMatch(/^Recovering: down/);
}

test('a monitor goes down and recovers: status, banner, incidents and percentages agree throughout', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const name = 'Truth health';
  const res = await page.request.post(`/v1/sites/${siteId}/uptime/monitors`, {
    data: { url: site.url('/health'), name, cadenceSeconds: 60, timeoutSeconds: 5 },
  });
  expect(res.status(), await res.text()).toBe(201);
  monitorId = ((await res.json()) as { monitor: { id: string } }).monitor.id;

  // The first round fires on create; failed probes retry once after 5 s; the page polls every 10 s.
  await page.goto(`/sites/${siteId}/uptime/${monitorId}`);
  const downBanner = page.getByRole('alert').filter({ hasText: /^Down since/ });
  await expect(downBanner).toBeVisible({ timeout: 60_000 });
  await settled(page);
  const down = await readMonitorPage(page, name);
  expectOneStory(down);
  expect(down.badge).toMatch(/^Down/);
  expect(down.incident).toMatch(/^Ongoing: down/);
  expect(down.banners.find((b) => b.startsWith('Down since'))).toMatch(/Ongoing for/);
  // The ongoing incident counts as down up to now: well below 100%, not frozen at its start.
  expect(pct(down.windows[0]!)).toBeLessThan(100);
  await bothWidths(page, 'truth-monitor-down', 'monitor page while down');
  // The target answers again. Until the incident closes, sample the page about every second.
  healthy = true;
  let recovering: MonitorTruth | null = null;
  await until(
    async () => {
      const now = await readMonitorPage(page, name);
      expectOneStory(now);
      if (!recovering && now.incident?.startsWith('Recovering')) {
        recovering = now;
        expect(now.badge).toMatch(/^(Up|Degraded)/);
        await bothWidths(page, 'truth-monitor-recovering', 'monitor page while the recovery is confirmed');
      }
      return now.incident !== null && !/^(Ongoing|Recovering)/.test(now.incident);
    },
    200_000,
    1_000,
    'the incident to close',
  );
  // One healthy round leaves the incident open for a cadence (60 s), and the page polls every 10 s:
  // the confirming state was on the page, and it said so.
  expect(recovering, 'the page never showed the recovery being confirmed').not.toBeNull();

  const up = await readMonitorPage(page, name);
  expectOneStory(up);
  expect(up.badge).toBe('Up');
  expect(up.banners.filter((b) => /^(Down since|Answering again)/.test(b))).toEqual([]);
  expect(up.incident).toMatch(/^down .+ to .+ \(/);
  expect(pct(up.windows[0]!)).toBeLessThan(100);
  await bothWidths(page, 'truth-monitor-recovered', 'monitor page after the recovery');
  // A fresh read says the same.
  await page.reload();
  await settled(page);
  await expect(page.getByRole('list', { name: 'Incidents, newest first' })).toBeVisible();
  const fresh = await readMonitorPage(page, name);
  expectOneStory(fresh);
  expect(fresh.badge).toBe('Up');
  expect(fresh.incident).toBe(up.incident);
});
