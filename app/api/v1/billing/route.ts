import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { billingResponse, updateBillingBody } from '@/lib/api/schemas/billing';
import { getBilling, updateBilling } from '@/lib/billing/service';

/** The billing resource itself is the body: `{overageEnabled, crawlPaused, a11yPaused, pausedSites, projected}`. */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: billingResponse,
    summary: 'Overage setting, paused apps and the projected bill',
    description: 'The billing resource itself is the body. Owners and admins only, from a dashboard session.',
  },
  ({ db, principal }) => getBilling(db, principal.tenantId),
);

/** Turns overage billing on or off; answers the billing resource as it now stands. */
export const PATCH = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: updateBillingBody,
    response: billingResponse,
    summary: 'Turn overage billing on or off',
    description:
      'Turning overage on un-pauses apps paused at their allowance from the next scheduler tick; turning it off re-arms pause-and-notify. Answers the billing resource as it now stands.',
  },
  ({ db, principal, body }) => updateBilling(db, principal.tenantId, body),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
