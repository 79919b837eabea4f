import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { type UpdateSiteInput, updateSite } from '@/lib/sites/service';
import { recomputeSiteA11yRun } from './report';

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
