import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { monitorIdParams, monitorMetricsQuery, monitorMetricsResponse } from '@/lib/api/schemas/uptime';
import { getMonitorMetrics } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: monitorIdParams,
    query: monitorMetricsQuery,
    response: monitorMetricsResponse,
    summary: 'Hourly latency and failures per region, incidents and uptime over the last `hours`',
    description:
      'Closed UTC hours only: one bucket per region and hour with its probes, failures and nearest-rank p50/p95 over the successful probes (raw results are rolled up when an hour closes; buckets are kept 90 days). events are the incidents overlapping the range; uptimePct is incident-based over the time the monitor was watched in the range (after it was created, outside pauses: paused, app off or held at the allowance, when nothing probed it).',
    errors: { 404: 'the site, or the monitor on it, is not found' },
  },
  ({ db, principal, params, query }) =>
    getMonitorMetrics(db, principal, { siteId: params.id, monitorId: params.monitorId }, query.hours),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
