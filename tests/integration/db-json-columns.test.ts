import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getA11yReport } from '@/lib/a11y/service';
import type { Principal } from '@/lib/auth/principal';
import { captureSettings } from '@/lib/crawl/runs/run';
import { getBrokenLinkReport } from '@/lib/crawl/views/report';
import { getUrlDetail } from '@/lib/crawl/views/url-detail';
import { type DbHandle, openDatabase } from '@/lib/db/client';
import { migrate, migrationsFolder } from '@/lib/db/migrate';
import { queryRows } from '@/lib/db/rows';
import { sites, uptimeMonitors } from '@/lib/db/schema';
import { readStoredWebhooks, storeWebhooks } from '@/lib/notify/stored-webhooks';
import { getSite } from '@/lib/sites/service';
import { getMonitorLive } from '@/lib/uptime/live';
import { monitorAlertTargets } from '@/lib/uptime/rounds';
import { adminQuery, withDatabase } from '../support/db';

/*
 * The migration that turned the text columns holding JSON into jsonb (`*_json_columns`), on a
 * database holding rows the old code wrote: migrated up to the migration before it, old rows
 * inserted as the old code stored them (JSON strings, and the empty strings and NULLs the old readers
 * took for "none"), then migrated on and read through the services. Each value must read as the old
 * code read it, and the spec's JSON strings must come out as they did. On the Postgres server with
 * TEST_DATABASE_URL, on PGlite without.
 */

const JOURNAL = path.join(migrationsFolder, 'meta/_journal.json');
type Journal = { entries: { idx: number; tag: string }[] };

/** A copy of the migrations folder that stops before the entry whose tag ends with `suffix`. */
function migrationsBefore(suffix: string): string {
  const journal = JSON.parse(readFileSync(JOURNAL, 'utf8')) as Journal & Record<string, unknown>;
  const at = journal.entries.findIndex((e) => e.tag.endsWith(suffix));
  if (at < 1) throw new Error(`no migration named *${suffix} after the first one`);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'sitewatch-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const entries = journal.entries.slice(0, at);
  for (const e of entries)
    cpSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** Applies only the migrations in `folder` (the data migrations are left to the full migrate). */
async function migrateWith(handle: DbHandle, folder: string): Promise<void> {
  if (handle.driver === 'pglite') {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    await run(handle.db as never, { migrationsFolder: folder });
  } else {
    const { migrate: run } = await import('drizzle-orm/node-postgres/migrator');
    await run(handle.db as never, { migrationsFolder: folder });
  }
}

const TENANT = 'org-json-columns';
const principal: Principal = {
  tenantId: TENANT,
  via: 'session',
  role: 'owner',
  siteIds: 'all',
  canCrawl: true,
};
const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/secret-path';
const DISCORD_URL = 'https://discord.com/api/webhooks/1/old-plain-url';

const REDIRECT =
  '[{"status":301,"url":"https://old.test/moved"},{"status":404,"url":"https://old.test/gone"}]';
const ATTRS = '{"id":"m1","class":"bad link","title":"Missing page"}';
const NODES =
  '[{"selector":"img.logo","snippet":"<img class=\\"logo\\">","summary":"Fix any of the following: alt"}]';
const REGIONS = JSON.stringify(
  ['na', 'eu', 'as', 'oc'].map((region) => ({
    ok: false,
    status: 503,
    totalMs: 12,
    phases: { dnsMs: 1, connectMs: 2, tlsMs: null, firstByteMs: 9 },
    tlsCertExpiresAt: null,
    cause: 'http_5xx',
    error: 'the server answered HTTP 503',
    checkedAt: 1_700_000_000_000,
    attempts: 2,
    region,
  })),
);

let handle: DbHandle;
let dropDatabase: (() => Promise<void>) | undefined;
let oldMigrations: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `sw_json_columns_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `create database ${name}`);
    dropDatabase = () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    handle = await openDatabase(withDatabase(serverUrl, name), '');
  } else {
    handle = await openDatabase(undefined, 'memory://');
  }
  oldMigrations = migrationsBefore('_json_columns');
  await migrateWith(handle, oldMigrations);
  const { db } = handle;
  const now = Date.now();
  const one = async <T>(query: SQL) => (await queryRows<T>(db, query))[0] as T;

  await db.execute(sql`insert into organizations (id, name, slug) values (${TENANT}, 'Old rows', ${TENANT})`);
  const site = (host: string, excludePaths: string, stripParams: string) =>
    one<{ id: string }>(sql`insert into sites (tenant_id, hostname, root_url, cadence_minutes, max_pages,
        max_concurrency, enabled, created_at, scanner_enabled, a11y_enabled, performance_enabled, uptime_enabled,
        seo_enabled, exclude_paths, strip_params)
      values (${TENANT}, ${host}, ${`https://${host}/`}, 10080, 5000, 100, 1, ${now}, 1, 1, 1, 1, 1,
        ${excludePaths}, ${stripParams}) returning id`);
  ids.site = (await site('old.test', '["/private/*"]', '["utm_source","ref"]')).id;
  ids.blankSite = (await site('blank.test', '', '')).id;

  // Sealed as the code stored them since migration 0015, and one stored before, in plain (the data
  // migration that seals such URLs runs after the schema migrations, so on jsonb).
  const sealed = JSON.stringify(storeWebhooks([{ kind: 'slack', url: SLACK_URL }], TENANT));
  const monitor = (url: string, emails: string | null, webhooks: string | null) =>
    one<{
      id: string;
    }>(sql`insert into uptime_monitors (site_id, tenant_id, url, enabled, created_at, updated_at,
        alert_emails, alert_webhooks)
      values (${ids.site}::uuid, ${TENANT}, ${url}, 1, ${now - 3_600_000}, ${now}, ${emails}, ${webhooks}) returning id`);
  ids.monitor = (await monitor('https://old.test/health', '["oncall@old.test"]', sealed)).id;
  ids.plainMonitor = (
    await monitor('https://old.test/plain', '[]', JSON.stringify([{ kind: 'discord', url: DISCORD_URL }]))
  ).id;
  ids.nullMonitor = (await monitor('https://old.test/null', null, null)).id;
  ids.blankMonitor = (await monitor('https://old.test/blank', '', '')).id;
  await db.execute(sql`insert into uptime_incidents (tenant_id, monitor_id, down_at, recovered_at, cause, regions,
      created_at, closed_by)
    values (${TENANT}, ${ids.monitor}::uuid, ${now - 1_800_000}, ${now - 900_000}, 'http_5xx', ${REGIONS},
      ${now - 1_800_000}, 'recovery'),
      (${TENANT}, ${ids.monitor}::uuid, ${now - 600_000}, null, 'http_5xx', null, ${now - 600_000}, null)`);

  ids.crawl = (
    await one<{ id: string }>(sql`insert into runs (site_id, tenant_id, started_at, finished_at, state, kind)
      values (${ids.site}::uuid, ${TENANT}, ${now - 60_000}, ${now - 30_000}, 'completed', 'crawl') returning id`)
  ).id;
  // An empty chain only where the old status sort index (which parsed it) did not reach: inlinks null.
  await db.execute(sql`insert into crawl_urls (run_id, url, kind, state, verdict, status_code, redirect_chain,
      is_page, links, inlinks)
    values (${ids.crawl}::uuid, 'https://old.test/', 'internal', 'done', 'ok', 200, null, 1,
        '[["https://old.test/moved", "Moved", "a", null], ["https://old.test/blank", "Blank", "a", null]]'::jsonb, 0),
      (${ids.crawl}::uuid, 'https://old.test/moved', 'internal', 'done', 'broken', 404, ${REDIRECT}, 0, null, 1),
      (${ids.crawl}::uuid, 'https://old.test/blank', 'internal', 'done', 'broken', 410, '', 0, null, null)`);
  await db.execute(sql`insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code,
      kind, redirect_chain, detail, created_at, link_text, link_selector, link_attrs)
    values (${ids.crawl}::uuid, ${TENANT}, 'https://old.test/', 'https://old.test/moved', 'broken', 404,
        'internal', ${REDIRECT}, 'not found (404)', ${now}, 'Moved', 'a', ${ATTRS}),
      (${ids.crawl}::uuid, ${TENANT}, 'https://old.test/', 'https://old.test/blank', 'broken', 410,
        'internal', '', 'gone (410)', ${now}, 'Blank', 'a', null)`);

  ids.scan = (
    await one<{ id: string }>(sql`insert into runs (site_id, tenant_id, started_at, finished_at, state, kind,
        a11y_pages_scanned)
      values (${ids.site}::uuid, ${TENANT}, ${now - 20_000}, ${now - 10_000}, 'completed', 'a11y', 1) returning id`)
  ).id;
  const finding = (rule: string, nodes: string) =>
    sql`insert into a11y_findings (run_id, tenant_id, page_url, rule, impact, help, help_url, type, count, nodes,
        created_at)
      values (${ids.scan}::uuid, ${TENANT}, 'https://old.test/', ${rule}, 'critical', ${rule}, 'https://dequeuniversity.com/',
        'violation', 1, ${nodes}, ${now})`;
  await db.execute(sql`insert into a11y_pages (run_id, tenant_id, page_url, status, created_at)
    values (${ids.scan}::uuid, ${TENANT}, 'https://old.test/', 'scanned', ${now})`);
  await db.execute(finding('image-alt', NODES));
  await db.execute(finding('link-name', ''));

  await migrate(handle);
}, 240_000);

afterAll(async () => {
  await handle?.close();
  await dropDatabase?.();
  if (oldMigrations) rmSync(oldMigrations, { recursive: true, force: true });
});

describe('text columns holding JSON, migrated to jsonb', () => {
  it('every one of them is jsonb after the migration', async () => {
    const rows = await queryRows<{ data_type: string }>(
      handle.db,
      sql`select table_name, column_name, data_type
        from information_schema.columns
        where (table_name, column_name) in (('sites', 'exclude_paths'), ('sites', 'strip_params'),
          ('uptime_monitors', 'alert_emails'), ('uptime_monitors', 'alert_webhooks'),
          ('uptime_incidents', 'regions'), ('crawl_urls', 'redirect_chain'), ('broken_links', 'redirect_chain'),
          ('broken_links', 'link_attrs'), ('a11y_findings', 'nodes'))
        order by table_name, column_name`,
    );
    expect(rows).toHaveLength(9);
    expect(rows.map((r) => r.data_type)).toEqual(Array(9).fill('jsonb'));
  });

  it("a site's lists read as the old code read them, an empty string as none", async () => {
    const { site } = await getSite(handle.db, principal, ids.site!);
    expect(site.exclude_paths).toBe('["/private/*"]');
    expect(site.strip_params).toBe('["utm_source","ref"]');
    const [row] = await handle.db.select().from(sites).where(eq(sites.id, ids.site!));
    const settings = await captureSettings(handle.db, row!, Date.now(), null);
    expect(settings.excludePaths).toEqual(['/private/*']);
    expect(settings.stripParams).toEqual(['utm_source', 'ref']);

    const blank = await getSite(handle.db, principal, ids.blankSite!);
    expect(blank.site.exclude_paths).toBe('[]');
    expect(blank.site.strip_params).toBe('[]');
  });

  it("a monitor's alert targets read back, a plain webhook URL sealed, an empty string as none", async () => {
    const live = await getMonitorLive(handle.db, principal, { siteId: ids.site!, monitorId: ids.monitor! });
    expect(live.monitor.alert_emails).toBe('["oncall@old.test"]');
    expect(live.monitor.alert_webhooks).toBe(JSON.stringify([{ kind: 'slack', url: SLACK_URL }]));

    const monitors = await handle.db.select().from(uptimeMonitors);
    const byUrl = new Map(monitors.map((m) => [m.url, m]));
    expect(monitorAlertTargets(byUrl.get('https://old.test/health')!).alertEmails).toEqual([
      'oncall@old.test',
    ]);
    // The old plain URL was sealed by the data migration, on the jsonb column.
    const plain = byUrl.get('https://old.test/plain')!;
    expect(JSON.stringify(plain.alert_webhooks)).not.toContain(DISCORD_URL);
    expect(readStoredWebhooks(plain.alert_webhooks, TENANT)).toEqual([{ kind: 'discord', url: DISCORD_URL }]);
    for (const url of ['https://old.test/null', 'https://old.test/blank']) {
      expect(monitorAlertTargets(byUrl.get(url)!)).toEqual({ alertEmails: [], alertWebhooks: [] });
    }
    const blank = await getMonitorLive(handle.db, principal, {
      siteId: ids.site!,
      monitorId: ids.blankMonitor!,
    });
    expect([blank.monitor.alert_emails, blank.monitor.alert_webhooks]).toEqual([null, null]);
  });

  it("an incident's region results read back; one without them stays null", async () => {
    const live = await getMonitorLive(handle.db, principal, { siteId: ids.site!, monitorId: ids.monitor! });
    const closed = live.incidents.find((i) => i.recovered_at !== null)!;
    expect(JSON.parse(closed.regions!)).toEqual(JSON.parse(REGIONS));
    expect(live.openIncident?.regions).toBeNull();
  });

  it("redirect chains and a link's attributes read back as the spec writes them, an empty string as none", async () => {
    const report = await getBrokenLinkReport(handle.db, principal, { siteId: ids.site! });
    expect(report.brokenLinks.map((b) => [b.target_url, b.redirect_chain, b.link_attrs])).toEqual([
      ['https://old.test/blank', null, null],
      ['https://old.test/moved', REDIRECT, ATTRS],
    ]);
    const detail = await getUrlDetail(
      handle.db,
      principal,
      { siteId: ids.site!, runId: undefined },
      {
        url: 'https://old.test/moved',
      },
    );
    expect(detail.hops).toEqual(JSON.parse(REDIRECT));
    const blank = await getUrlDetail(
      handle.db,
      principal,
      { siteId: ids.site!, runId: undefined },
      {
        url: 'https://old.test/blank',
      },
    );
    expect(blank.hops).toEqual([]);
  });

  it("a finding's example nodes read back as the spec writes them, an empty string as none", async () => {
    const report = await getA11yReport(handle.db, principal, ids.site!);
    const nodes = Object.fromEntries(report.issues.map((i) => [i.rule, i.nodes]));
    expect(nodes).toEqual({ 'image-alt': NODES, 'link-name': '[]' });
  });
});
