import { createSuppression, listSuppressions } from '@/lib/a11y/service';
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
    description: 'Every suppression of the site; the report lists them too, each with the findings it hides.',
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
    description:
      'rule alone suppresses the rule site-wide; rule and selector, that element on every page; rule, selector and pageUrl, one occurrence. Applied retroactively to the stored report; reversible by deleting the suppression.',
  },
  ({ db, principal, params, body }) =>
    createSuppression(db, principal, params.id, body).then((suppression) => ({ suppression })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
