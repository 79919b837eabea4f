/**
 * The accessibility app's entry for the API routes: the report (read in `report/report.ts`),
 * suppressions and manual checks of a site (the reviewer's decisions the report applies on read; a
 * suppression added or removed recomputes the latest run's stored score and counts at once), and a
 * site's settings change with the stored score kept in step.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { a11yManualChecks, a11ySuppressions } from '@/lib/db/schema';
import { InvalidError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type UpdateSiteInput, updateSite } from '@/lib/sites/service';
import { validateManualCheck } from './report/manual-checks';
import { type A11ySuppressionResource, suppressionResource } from './report/report';
import { recomputeA11yRun, recomputeSiteA11yRun } from './report/run-figures';
import { validateSuppression } from './report/suppressions';

export { getA11yReport } from './report/report';

/**
 * Who made a change, for `created_by` and a manual check's `by`: the user id of a session, or
 * `key:<key id>` for an API key (a key has no user; its id stays stable when it is renamed).
 */
export function actorOf(principal: Principal): string | null {
  if (principal.via === 'key') return principal.keyId ? `key:${principal.keyId}` : null;
  return principal.userId ?? null;
}

export async function listSuppressions(
  db: Db,
  principal: Principal,
  siteId: string,
): Promise<A11ySuppressionResource[]> {
  const site = await getVisibleSite(db, principal, siteId);
  const rows = await db
    .select()
    .from(a11ySuppressions)
    .where(and(eq(a11ySuppressions.tenant_id, site.tenant_id), eq(a11ySuppressions.site_id, site.id)))
    .orderBy(asc(a11ySuppressions.created_at), asc(a11ySuppressions.id));
  return rows.map(suppressionResource);
}

export async function createSuppression(
  db: Db,
  principal: Principal,
  siteId: string,
  body: unknown,
): Promise<A11ySuppressionResource> {
  // The site first: a caller who cannot see it learns nothing from how its body is judged.
  const site = await getVisibleSite(db, principal, siteId);
  const checked = validateSuppression(body);
  if (!checked.ok) throw new InvalidError(checked.field, checked.problem);
  const [row] = await db
    .insert(a11ySuppressions)
    .values({
      tenant_id: site.tenant_id,
      site_id: site.id,
      rule: checked.value.rule,
      selector: checked.value.selector,
      page_url: checked.value.pageUrl,
      reason: checked.value.reason,
      created_by: actorOf(principal),
      created_at: Date.now(),
    })
    .returning();
  await recomputeA11yRun(db, site);
  return suppressionResource(row!);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function deleteSuppression(
  db: Db,
  principal: Principal,
  { siteId, suppressionId }: { siteId: string; suppressionId: string },
): Promise<void> {
  const site = await getVisibleSite(db, principal, siteId);
  const notFound = new NotFoundError('suppression not found');
  if (!UUID.test(suppressionId)) throw notFound;
  const deleted = await db
    .delete(a11ySuppressions)
    .where(
      and(
        eq(a11ySuppressions.tenant_id, site.tenant_id),
        eq(a11ySuppressions.site_id, site.id),
        eq(a11ySuppressions.id, suppressionId),
      ),
    )
    .returning({ id: a11ySuppressions.id });
  if (deleted.length === 0) throw notFound;
  await recomputeA11yRun(db, site);
}

/** PUT /v1/sites/{id}/a11y-manual-checks: one criterion's check, created or replaced. */
export async function upsertManualCheck(
  db: Db,
  principal: Principal,
  siteId: string,
  body: unknown,
): Promise<void> {
  const site = await getVisibleSite(db, principal, siteId);
  const checked = validateManualCheck(body);
  if (!checked.ok) throw new InvalidError(checked.field, checked.problem);
  const values = {
    status: checked.value.status,
    note: checked.value.note,
    by: actorOf(principal),
    at: Date.now(),
  };
  await db
    .insert(a11yManualChecks)
    .values({ tenant_id: site.tenant_id, site_id: site.id, sc: checked.value.sc, ...values })
    .onConflictDoUpdate({
      target: [a11yManualChecks.tenant_id, a11yManualChecks.site_id, a11yManualChecks.sc],
      set: values,
    });
}

/**
 * A site's settings change, with the stored accessibility score kept in step: the score counts only
 * pages outside `excludePaths`, and the spec wants the stored one to move when they change. It
 * lives here rather than in lib/sites because the score is the accessibility app's (lib/sites
 * cannot import lib/a11y, which reads sites). The recompute follows the update rather than sharing
 * its transaction: it reads the run's stored findings, and a failed recompute leaves the previous
 * score, which the next change or suppression recomputes.
 */
export async function updateSiteSettings(
  db: Db,
  principal: Principal,
  siteId: string,
  input: UpdateSiteInput,
) {
  const site = await updateSite(db, principal, siteId, input);
  if (input.excludePaths !== undefined) await recomputeSiteA11yRun(db, principal, siteId);
  return site;
}
