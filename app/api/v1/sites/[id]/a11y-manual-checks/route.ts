import { upsertManualCheck } from '@/lib/a11y/service';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { manualCheckBody, okResponse } from '@/lib/api/schemas/a11y';
import { siteIdParams } from '@/lib/api/schemas/sites';

export const PUT = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    body: manualCheckBody,
    response: okResponse,
    summary: "Record a reviewer's manual check of one WCAG criterion (never changes score or verdict)",
    description:
      "Upserts the check of one WCAG 2.2 success criterion; it overlays the accessibility report's coverage matrix and never changes the score or the verdict.",
  },
  ({ db, principal, params, body }) =>
    upsertManualCheck(db, principal, params.id, body).then(() => ({ ok: true })),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
