import { deleteSuppression } from '@/lib/a11y/service';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { deletedResponse, suppressionIdParams } from '@/lib/api/schemas/a11y';

export const DELETE = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: suppressionIdParams,
    response: deletedResponse,
    summary: 'Remove a suppression; the findings it hid count again and the score is recomputed at once',
    description: 'The findings the suppression hid count again in the report, the score and the verdict.',
  },
  ({ db, principal, params }) =>
    deleteSuppression(db, principal, { siteId: params.id, suppressionId: params.suppressionId }).then(() => ({
      deleted: true as const,
    })),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
