import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchConnectionResponse, searchSettingsBody } from '@/lib/api/schemas/search';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { disconnectSearch, getSearchConnection, updateSearchAlertSettings } from '@/lib/search/service';

export const GET = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    response: searchConnectionResponse,
    summary: "The site's search connection (Search Console): status, account, property, last sync",
    description:
      'Owner/admin session. `status`: null (never connected), pending-property, connected, error (syncing stopped; `error` says why), revoked (disconnected). The OAuth refresh token never appears.',
  },
  ({ db, principal, params }) => getSearchConnection(db, principal, params.id),
);

export const PATCH = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    body: searchSettingsBody,
    response: searchConnectionResponse,
    summary: "Set the site's traffic-drop alert: threshold (percent) and minimum baseline (clicks)",
    description:
      'The alert fires once per drop when the last 7 final days have at least `dropThresholdPct` percent fewer clicks than the 7 before, which had at least `dropMinClicks` (defaults 30 and 100).',
  },
  ({ db, principal, params, body }) => updateSearchAlertSettings(db, principal, params.id, body),
);

export const DELETE = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    response: searchConnectionResponse,
    summary:
      'Disconnect the search account: revoke the grant at Google and forget token, property and analytics',
    description:
      'Status becomes `revoked`. The grant is revoked at Google when Google can be reached and forgotten either way.',
    errors: { 404: 'the site is not connected to a search account' },
  },
  ({ db, principal, params }) => disconnectSearch(db, principal, params.id),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
