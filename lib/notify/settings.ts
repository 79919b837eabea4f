import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { members, notificationSettings, sites } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type AddressState, addressStates, requestConfirmations } from './consent';
import { RECIPIENT_LISTS, WEBHOOK_LISTS } from './kinds';
import { type SigningSecretView, signingSecretView } from './signing';
import { readStoredWebhooks, storeWebhooks } from './stored-webhooks';
import type { NotificationWebhook } from './webhook';

/**
 * Notification settings (spec: Notification settings): the organization's defaults (scope `org`) and
 * per-site overrides (scope = the site id), one `notification_settings` row each. Delivery reads them
 * when it resolves an event's receivers, so a change applies to the next delivery.
 */

/** Spec: Notification recipient. A `user` is resolved to the member's current email at delivery. */
export type Recipient = { kind: 'user'; userId: string } | { kind: 'email'; email: string };

export interface NotificationSettings {
  uptimeRecipients: Recipient[];
  uptimeWebhooks: NotificationWebhook[];
  crawlReportRecipients: Recipient[];
  searchAlertRecipients: Recipient[];
  searchAlertWebhooks: NotificationWebhook[];
  perfAlertRecipients: Recipient[];
  perfAlertWebhooks: NotificationWebhook[];
  reportRecipients: Recipient[];
  /** Site overrides: union the org defaults back in at delivery. Always true on the org scope. */
  includeOrgDefaults: boolean;
}

/** A partial update, as validated by the request schema: omitted fields keep their value. */
export type NotificationSettingsInput = Partial<NotificationSettings>;

export const ORG_SCOPE = 'org';

/** Where every scope starts: no receivers; a new override includes the org defaults. */
export function emptySettings(): NotificationSettings {
  return {
    uptimeRecipients: [],
    uptimeWebhooks: [],
    crawlReportRecipients: [],
    searchAlertRecipients: [],
    searchAlertWebhooks: [],
    perfAlertRecipients: [],
    perfAlertWebhooks: [],
    reportRecipients: [],
    includeOrgDefaults: true,
  };
}

type Lists = Omit<NotificationSettings, 'includeOrgDefaults'>;

/**
 * The stored document holds the lists, webhooks with their URL sealed (lib/notify/webhook.ts:
 * `{kind, sealedUrl}`); `include_org_defaults` is its own column.
 */
function fromRow(
  tenantId: string,
  row: { settings: unknown; include_org_defaults: number } | undefined,
): NotificationSettings {
  const settings = emptySettings();
  if (!row) return settings;
  const stored = (row.settings ?? {}) as Record<string, unknown>;
  for (const list of RECIPIENT_LISTS) settings[list] = (stored[list] as Recipient[] | undefined) ?? [];
  for (const list of WEBHOOK_LISTS) settings[list] = readStoredWebhooks(stored[list], tenantId);
  settings.includeOrgDefaults = row.include_org_defaults === 1;
  return settings;
}

/** The document to store: the lists, webhook URLs sealed. */
function storedLists(tenantId: string, settings: NotificationSettings): Record<string, unknown> {
  const { includeOrgDefaults: _omitted, ...lists }: Lists & { includeOrgDefaults: boolean } = settings;
  const stored: Record<string, unknown> = { ...lists };
  for (const list of WEBHOOK_LISTS) stored[list] = storeWebhooks(settings[list], tenantId);
  return stored;
}

async function readScope(db: Db, tenantId: string, scope: string) {
  const [row] = await db
    .select({
      settings: notificationSettings.settings,
      include_org_defaults: notificationSettings.include_org_defaults,
    })
    .from(notificationSettings)
    .where(and(eq(notificationSettings.tenant_id, tenantId), eq(notificationSettings.scope, scope)))
    .limit(1);
  return row;
}

/**
 * An organization whose defaults were never saved: its first owner (the one who created it)
 * receives uptime and performance alerts, so an outage reaches someone from the first day; allowance
 * alerts go to owners and admins by kind already. Derived on read rather than written at creation,
 * so there is one stored shape (this module's) and the auth layer, which creates organizations,
 * need not reach into notifications. The first save stores whatever the form then shows.
 */
async function ownerDefaults(db: Db, tenantId: string): Promise<NotificationSettings> {
  const settings = emptySettings();
  const [owner] = await db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, tenantId), eq(members.role, 'owner')))
    .orderBy(asc(members.createdAt), asc(members.id))
    .limit(1);
  if (owner) {
    settings.uptimeRecipients = [{ kind: 'user', userId: owner.userId }];
    settings.perfAlertRecipients = [{ kind: 'user', userId: owner.userId }];
  }
  return settings;
}

/** The org defaults; `includeOrgDefaults` reads true there (it has no meaning on this scope). */
export async function orgSettings(db: Db, tenantId: string): Promise<NotificationSettings> {
  const row = await readScope(db, tenantId, ORG_SCOPE);
  const settings = row ? fromRow(tenantId, row) : await ownerDefaults(db, tenantId);
  return { ...settings, includeOrgDefaults: true };
}

/** A site's override, or null when the site follows the org defaults. */
export async function siteOverride(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
): Promise<NotificationSettings | null> {
  const row = await readScope(db, tenantId, siteId);
  return row ? fromRow(tenantId, row) : null;
}

/** Ids of the organization's sites that carry their own override, oldest site first. */
export async function overriddenSiteIds(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: sites.id })
    .from(notificationSettings)
    .innerJoin(
      sites,
      and(eq(sites.tenant_id, tenantId), sql`${sites.id}::text = ${notificationSettings.scope}`),
    )
    .where(eq(notificationSettings.tenant_id, tenantId))
    .orderBy(asc(sites.created_at), asc(sites.id));
  return rows.map((r) => r.id);
}

/**
 * `user` recipients must be members of the organization (their address is looked up at delivery):
 * the first that is not is a 422 naming its place, e.g. `uptimeRecipients.2.userId`.
 */
async function assertMembers(db: Db, tenantId: string, input: NotificationSettingsInput): Promise<void> {
  const wanted = RECIPIENT_LISTS.flatMap((list) =>
    (input[list] ?? []).flatMap((r, i) => (r.kind === 'user' ? [{ list, i, userId: r.userId }] : [])),
  );
  if (wanted.length === 0) return;
  const found = await db
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        eq(members.organizationId, tenantId),
        inArray(members.userId, [...new Set(wanted.map((w) => w.userId))]),
      ),
    );
  const known = new Set(found.map((f) => f.userId));
  const stranger = wanted.find((w) => !known.has(w.userId));
  if (stranger) {
    throw new InvalidError(`${stranger.list}.${stranger.i}.userId`, 'is not a member of this organization');
  }
}

/** Upserts one scope with the input's fields over the current ones; answers the merged settings. */
async function writeScope(
  db: Db,
  tenantId: string,
  scope: string,
  current: NotificationSettings,
  input: NotificationSettingsInput,
  now: number,
): Promise<NotificationSettings> {
  await assertMembers(db, tenantId, input);
  const merged: NotificationSettings = { ...current };
  for (const list of RECIPIENT_LISTS) if (input[list] !== undefined) merged[list] = input[list];
  for (const list of WEBHOOK_LISTS) if (input[list] !== undefined) merged[list] = input[list];
  if (input.includeOrgDefaults !== undefined) merged.includeOrgDefaults = input.includeOrgDefaults;
  const values = {
    settings: storedLists(tenantId, merged),
    include_org_defaults: merged.includeOrgDefaults ? 1 : 0,
    updated_at: now,
  };
  await db
    .insert(notificationSettings)
    .values({ tenant_id: tenantId, scope, ...values })
    .onConflictDoUpdate({
      target: [notificationSettings.tenant_id, notificationSettings.scope],
      set: values,
    });
  // Addresses outside the organization newly named here are asked to confirm (one mail each).
  await requestConfirmations(
    db,
    tenantId,
    RECIPIENT_LISTS.flatMap((list) =>
      (input[list] ?? []).flatMap((r) => (r.kind === 'email' ? [r.email] : [])),
    ),
    now,
  );
  return merged;
}

/** PATCH /v1/notifications: the org defaults with the given fields replaced. */
export async function updateOrgSettings(
  db: Db,
  tenantId: string,
  input: NotificationSettingsInput,
  now = Date.now(),
): Promise<NotificationSettings> {
  // includeOrgDefaults means nothing on the org scope: accepted (the body is Notification settings) and ignored.
  const { includeOrgDefaults: _ignored, ...lists } = input;
  const merged = await writeScope(db, tenantId, ORG_SCOPE, await orgSettings(db, tenantId), lists, now);
  return { ...merged, includeOrgDefaults: true };
}

export interface SiteSettingsView {
  settings: NotificationSettings;
  /** false: the site follows the org defaults, and `settings` is where an override would start. */
  overridden: boolean;
}

/** GET /v1/sites/{id}/notifications. */
export async function getSiteSettings(
  db: Db,
  principal: Principal,
  siteId: string,
): Promise<SiteSettingsView> {
  const site = await getVisibleSite(db, principal, siteId);
  const override = await siteOverride(db, { tenantId: principal.tenantId, siteId: site.id });
  return { settings: override ?? emptySettings(), overridden: override !== null };
}

/**
 * PATCH /v1/sites/{id}/notifications: creates or updates the override. A new one starts from empty
 * receivers with `includeOrgDefaults: true`, so a partial body narrows delivery only through an
 * explicit `includeOrgDefaults: false`.
 */
export async function updateSiteSettings(
  db: Db,
  principal: Principal,
  siteId: string,
  input: NotificationSettingsInput,
  now = Date.now(),
): Promise<SiteSettingsView> {
  const site = await getVisibleSite(db, principal, siteId);
  const current =
    (await siteOverride(db, { tenantId: principal.tenantId, siteId: site.id })) ?? emptySettings();
  const settings = await writeScope(db, principal.tenantId, site.id, current, input, now);
  return { settings, overridden: true };
}

/** DELETE /v1/sites/{id}/notifications: the site follows the org defaults again. */
export async function deleteSiteSettings(
  db: Db,
  principal: Principal,
  siteId: string,
): Promise<{ deleted: boolean }> {
  const site = await getVisibleSite(db, principal, siteId);
  const removed = await db
    .delete(notificationSettings)
    .where(
      and(eq(notificationSettings.tenant_id, principal.tenantId), eq(notificationSettings.scope, site.id)),
    )
    .returning({ scope: notificationSettings.scope });
  return { deleted: removed.length > 0 };
}

export interface OrgNotificationsView extends SigningSecretView {
  settings: NotificationSettings;
  overriddenSiteIds: string[];
  addresses: AddressState[];
}

/** GET /v1/notifications: the org defaults, the sites with an override, the signing secret. */
export async function getOrgNotifications(db: Db, tenantId: string): Promise<OrgNotificationsView> {
  const [settings, overridden, addresses, secret] = await Promise.all([
    orgSettings(db, tenantId),
    overriddenSiteIds(db, tenantId),
    addressStates(db, tenantId),
    signingSecretView(db, tenantId),
  ]);
  return { settings, overriddenSiteIds: overridden, addresses, ...secret };
}
