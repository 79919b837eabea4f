import { eq, sql } from 'drizzle-orm';
import { sealPlainWebhooks, sealWebhookUrl, webhookUrlDigest } from '@/lib/crypto/webhook-urls';
import type { Db } from './client';
import { queryRows } from './rows';
import { dataMigrations } from './schema';

/**
 * Changes to stored rows that a SQL migration cannot make (they need the server's encryption key),
 * each applied once, in order, right after the schema migrations (lib/db/migrate.ts) and recorded in
 * `data_migrations`. Each is written to be safe to run again (it only touches rows still in the old
 * form), so a process that dies half-way finishes the job on the next start.
 */
interface DataMigration {
  name: string;
  run: (db: Db) => Promise<void>;
}

const BATCH = 500;

/**
 * Webhook URLs carry their credential (a Slack, Discord or Teams webhook's path), so they are kept
 * sealed (lib/crypto/webhook-urls.ts). Rows written before: notification settings' webhook lists,
 * monitors' `alert_webhooks`, uptime events' `alertWebhooks` payload, webhook deliveries' `target`
 * (sealed) and `receiver_key` (the URL's digest instead of the URL).
 */
async function sealWebhookUrls(db: Db): Promise<void> {
  const settings = await queryRows<{ tenant_id: string; scope: string; settings: Record<string, unknown> }>(
    db,
    sql`select tenant_id, scope, settings from notification_settings`,
  );
  for (const row of settings) {
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [list, value] of Object.entries(row.settings ?? {})) {
      const sealed = sealPlainWebhooks(value, row.tenant_id);
      next[list] = sealed.value;
      changed ||= sealed.changed;
    }
    if (changed) {
      await db.execute(sql`update notification_settings set settings = ${JSON.stringify(next)}::jsonb
        where tenant_id = ${row.tenant_id} and scope = ${row.scope}`);
    }
  }

  for (;;) {
    // alert_webhooks is jsonb by the time this runs (data migrations follow every schema migration).
    const monitors = await queryRows<{ id: string; tenant_id: string; alert_webhooks: unknown }>(
      db,
      sql`select id, tenant_id, alert_webhooks from uptime_monitors
          where jsonb_path_exists(alert_webhooks, '$[*].url') limit ${BATCH}`,
    );
    for (const m of monitors) {
      const sealed = sealPlainWebhooks(m.alert_webhooks, m.tenant_id).value;
      await db.execute(
        sql`update uptime_monitors set alert_webhooks = ${JSON.stringify(sealed)}::jsonb where id = ${m.id}`,
      );
    }
    if (monitors.length < BATCH) break;
  }

  for (;;) {
    const events = await queryRows<{ id: string; tenant_id: string; payload: Record<string, unknown> }>(
      db,
      sql`select id, tenant_id, payload from notification_outbox
          where jsonb_path_exists(payload, '$.alertWebhooks[*].url') limit ${BATCH}`,
    );
    for (const e of events) {
      const payload = {
        ...e.payload,
        alertWebhooks: sealPlainWebhooks(e.payload.alertWebhooks, e.tenant_id).value,
      };
      await db.execute(
        sql`update notification_outbox set payload = ${JSON.stringify(payload)}::jsonb where id = ${e.id}`,
      );
    }
    if (events.length < BATCH) break;
  }

  for (;;) {
    const deliveries = await queryRows<{ id: string; tenant_id: string; channel: string; target: string }>(
      db,
      sql`select id, tenant_id, channel, target from notification_deliveries
          where channel <> 'email' and target not like 'v1.%' limit ${BATCH}`,
    );
    for (const d of deliveries) {
      await db.execute(sql`update notification_deliveries
        set target = ${sealWebhookUrl(d.target, d.tenant_id)},
            receiver_key = ${`webhook:${d.channel}:${webhookUrlDigest(d.target)}`}
        where id = ${d.id}`);
    }
    if (deliveries.length < BATCH) break;
  }
}

const DATA_MIGRATIONS: DataMigration[] = [{ name: '0015_seal_webhook_urls', run: sealWebhookUrls }];

/**
 * Applies the data migrations not yet recorded, each in its own transaction with its record, under
 * an advisory lock so two processes starting at once (a preview build and a booting server) apply
 * each once.
 */
export async function applyDataMigrations(db: Db, now = Date.now()): Promise<string[]> {
  const recorded = await db.select({ name: dataMigrations.name }).from(dataMigrations);
  const done = new Set(recorded.map((r) => r.name));
  const applied: string[] = [];
  for (const migration of DATA_MIGRATIONS) {
    if (done.has(migration.name)) continue;
    const ran = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7419003)`);
      const [already] = await tx
        .select({ name: dataMigrations.name })
        .from(dataMigrations)
        .where(eq(dataMigrations.name, migration.name));
      if (already) return false;
      await migration.run(tx);
      await tx.insert(dataMigrations).values({ name: migration.name, applied_at: now });
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
