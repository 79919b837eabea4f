import { createSuppression, listSuppressions } from '@/lib/a11y/suppression-service';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { suppressionBody, suppressionListResponse, suppressionResponse } from '@/lib/api/schemas/a11y';
import { siteIdParams } from '@/lib/api/schemas/sites';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: suppressionListResponse,
    summary: "The site's accessibility suppressions, oldest first",
  },
  ({ db, principal, params }) =>
    listSuppressions(db, principal, params.id).then((suppressions) => ({ suppressions })),
);

export const POST = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    body: suppressionBody,
    response: suppressionResponse,
    status: 201,
    summary:
      'Suppress a rule site-wide, an element everywhere, or one occurrence; the score is recomputed at once',
  },
  ({ db, principal, params, body }) =>
    createSuppression(db, principal, params.id, body).then((suppression) => ({ suppression })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
