import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { organizationLogos, organizations } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import type { LogoType } from './limits';
import { checkLogo, logoDataUrl } from './logo';
import { organizationName } from './name';

/**
 * The caller's organization as `/v1/organization` shows it: its name and logo, which brand the
 * monthly reports (and the name, the mails). Every read and write is of the one tenant passed in:
 * the caller's active organization.
 */

export interface OrganizationLogoView {
  contentType: LogoType;
  size: number;
  sha256: string;
  updatedAt: number;
  /** The image as a `data:` URL (at most about 137 KB of text). */
  dataUrl: string;
}

export interface OrganizationView {
  id: string;
  name: string;
  slug: string;
  logo: OrganizationLogoView | null;
}

async function logoOf(db: Db, tenantId: string): Promise<OrganizationLogoView | null> {
  const [row] = await db
    .select()
    .from(organizationLogos)
    .where(eq(organizationLogos.tenant_id, tenantId))
    .limit(1);
  if (!row) return null;
  return {
    contentType: row.content_type,
    size: row.size,
    sha256: row.sha256,
    updatedAt: row.updated_at,
    dataUrl: logoDataUrl({ contentType: row.content_type, image: row.image }),
  };
}

/** GET /v1/organization: any member of it. */
export async function getOrganization(db: Db, tenantId: string): Promise<OrganizationView> {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug })
    .from(organizations)
    .where(eq(organizations.id, tenantId))
    .limit(1);
  if (!row) throw new NotFoundError('organization not found');
  return { ...row, logo: await logoOf(db, tenantId) };
}

/** PATCH /v1/organization `{name}` (owner/admin; the schema has trimmed and checked the name). */
export async function renameOrganization(
  db: Db,
  { tenantId, name }: { tenantId: string; name: string },
): Promise<OrganizationView> {
  await db.update(organizations).set({ name }).where(eq(organizations.id, tenantId));
  return getOrganization(db, tenantId);
}

/** PUT /v1/organization/logo (owner/admin): replaces the logo once the upload passes `checkLogo`. */
export async function setOrganizationLogo(
  db: Db,
  tenantId: string,
  upload: { contentType: LogoType; data: string },
): Promise<OrganizationView> {
  const logo = checkLogo(upload.contentType, upload.data);
  const values = {
    content_type: logo.contentType,
    image: logo.image,
    size: logo.size,
    sha256: logo.sha256,
    updated_at: Date.now(),
  };
  await db
    .insert(organizationLogos)
    .values({ tenant_id: tenantId, ...values })
    .onConflictDoUpdate({ target: organizationLogos.tenant_id, set: values });
  return getOrganization(db, tenantId);
}

/** DELETE /v1/organization/logo (owner/admin): reports go back to the name alone. */
export async function removeOrganizationLogo(db: Db, tenantId: string): Promise<OrganizationView> {
  await db.delete(organizationLogos).where(eq(organizationLogos.tenant_id, tenantId));
  return getOrganization(db, tenantId);
}

/** The logo's bytes and type, for a mail that shows it inline; null without one. */
export async function organizationLogoFile(
  db: Db,
  tenantId: string,
): Promise<{ contentType: LogoType; image: Uint8Array } | null> {
  const [row] = await db
    .select({ contentType: organizationLogos.content_type, image: organizationLogos.image })
    .from(organizationLogos)
    .where(eq(organizationLogos.tenant_id, tenantId))
    .limit(1);
  return row ?? null;
}

/** What brands a report of the organization: its name and, when it has one, its logo as a data URL. */
export async function organizationBrand(
  db: Db,
  tenantId: string,
): Promise<{ name: string; logo: string | null }> {
  const [name, logo] = await Promise.all([organizationName(db, tenantId), logoOf(db, tenantId)]);
  return { name, logo: logo?.dataUrl ?? null };
}
