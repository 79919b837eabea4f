'use client';

import type { Delivery, DeliveryList, SitesResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { SelectField } from '@/components/ui/field';
import { FilterForm } from '@/components/ui/filter-form';
import { Pager } from '@/components/ui/pager';
import { type QueryState, withQuery } from '@/components/ui/query-href';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState, LoadError, Loading, Skeleton } from '@/components/ui/surface';
import { WEBHOOK_KIND_LABELS } from '@/components/uptime/words';
import { formatDateTime } from '@/lib/format';
import { ORGANIZATION_KINDS, type OrganizationKind } from '@/lib/notify/kinds';
import { ReceiverHealthBadges } from './receiver-health';

const PATH = '/notifications/deliveries';
const PAGE_SIZE = 50;

export const KIND_LABELS: Record<OrganizationKind, string> = {
  'uptime-down': 'Uptime: down',
  'uptime-recovered': 'Uptime: recovered',
  'certificate-expiring': 'Certificate expiring',
  'domain-expiring': 'Domain expiring',
  'crawl-summary': 'Crawl summary',
  'allowance-reached': 'Allowance reached',
  'perf-regression': 'Performance regression',
  'search-traffic-drop': 'Search traffic drop',
  'stakeholder-report': 'Monthly report',
};

const STATE_TONES = {
  pending: 'warning',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  cancelled: 'neutral',
} as const;

/** The delivery states, in the order a delivery goes through them (the State filter's choices). */
const STATES = Object.keys(STATE_TONES) as Delivery['state'][];

function receiverText(d: Delivery): string {
  const r = d.receiver;
  if (r.type === 'member') return r.name ? `${r.name} (${r.email})` : r.email;
  if (r.type === 'email') return r.email;
  return `${WEBHOOK_KIND_LABELS[r.kind]} webhook, ${r.url}/…`;
}

function retryText(d: Delivery): string {
  if (d.state === 'pending' && d.nextAttemptAt !== null) {
    return d.attempts === 0
      ? `First try ${formatDateTime(d.nextAttemptAt)}`
      : `Retry ${d.attempts + 1} of ${d.maxAttempts} at ${formatDateTime(d.nextAttemptAt)}`;
  }
  if (d.state === 'sending') return 'Sending now';
  if (d.state === 'failed') return `Gave up after ${d.attempts} attempts`;
  return '—';
}

/**
 * Every notification to every receiver, newest first: filters by site, kind and state in the URL
 * (Webhook health links to the pending ones a paused webhook holds), pages.
 */
export function DeliveryLog({ query }: { query: QueryState }) {
  const siteId = query.siteId || undefined;
  const kind =
    query.kind && (ORGANIZATION_KINDS as readonly string[]).includes(query.kind) ? query.kind : undefined;
  const state = query.state && (STATES as string[]).includes(query.state) ? query.state : undefined;
  const api = withQuery('/v1/notifications/deliveries', {
    siteId,
    kind,
    state,
    cursor: query.cursor,
    limit: String(PAGE_SIZE),
  });
  const deliveries = useApi<DeliveryList>(api);
  const sites = useApi<SitesResponse>('/v1/sites');
  const filtered = siteId !== undefined || kind !== undefined || state !== undefined;

  return (
    <div className="space-y-5">
      <FilterForm label="Filter deliveries" path={PATH} keep={{}} active={filtered}>
        <SelectField label="Site" name="siteId" defaultValue={siteId ?? ''} className="w-56">
          <option value="">All sites</option>
          {(sites.data?.sites ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.hostname}
            </option>
          ))}
        </SelectField>
        <SelectField label="Kind" name="kind" defaultValue={kind ?? ''} className="w-56">
          <option value="">All kinds</option>
          {ORGANIZATION_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </SelectField>
        <SelectField label="State" name="state" defaultValue={state ?? ''} className="w-40">
          <option value="">All states</option>
          {STATES.map((st) => (
            <option key={st} value={st}>
              {st}
            </option>
          ))}
        </SelectField>
      </FilterForm>

      {deliveries.error ? (
        <LoadError
          title="Could not load the delivery log"
          error={deliveries.error}
          onRetry={deliveries.mutate}
        />
      ) : !deliveries.data ? (
        <Loading label="Loading deliveries">
          <Skeleton className="h-48 w-full" />
        </Loading>
      ) : deliveries.data.deliveries.length === 0 ? (
        <EmptyState
          title={filtered ? 'No deliveries match these filters' : 'Nothing sent yet'}
          description={
            filtered
              ? 'Clear the filters to see every delivery.'
              : 'Each notification to each receiver shows up here: crawl summaries, uptime alerts, reports.'
          }
        />
      ) : (
        <>
          <ResponsiveTable
            caption="Notification deliveries, newest first"
            rows={deliveries.data.deliveries}
            rowKey={(d) => d.id}
            title={{
              key: 'what',
              header: 'Notification',
              cell: (d) => (
                <span>
                  <span className="font-medium text-zinc-900">{KIND_LABELS[d.kind]}</span>
                  {d.hostname ? <span className="block text-xs text-zinc-600">{d.hostname}</span> : null}
                </span>
              ),
            }}
            columns={[
              {
                key: 'to',
                header: 'To',
                className: 'break-all',
                cell: (d) =>
                  d.receiverHealth &&
                  (d.receiverHealth.circuit !== 'closed' ||
                    d.receiverHealth.consecutiveFailures > 0 ||
                    d.receiverHealth.slow) ? (
                    <span className="space-y-1">
                      <span className="block">{receiverText(d)}</span>
                      <ReceiverHealthBadges health={d.receiverHealth} />
                    </span>
                  ) : (
                    receiverText(d)
                  ),
              },
              {
                key: 'when',
                header: 'When',
                className: 'whitespace-nowrap',
                cell: (d) => formatDateTime(d.sentAt ?? d.createdAt),
              },
              {
                key: 'outcome',
                header: 'Outcome',
                cell: (d) => (
                  <span className="space-y-1">
                    <Badge tone={STATE_TONES[d.state]}>{d.state}</Badge>
                    {d.outcome ? <span className="block text-xs text-zinc-700">{d.outcome}</span> : null}
                  </span>
                ),
              },
              {
                key: 'retry',
                header: 'Attempts and retry',
                cell: (d) => (
                  <span className="text-xs">
                    {d.attempts} of {d.maxAttempts}
                    <span className="block text-zinc-600">{retryText(d)}</span>
                  </span>
                ),
              },
            ]}
          />
          <Pager
            label="Pages of deliveries"
            path={PATH}
            query={{ siteId, kind, state, cursor: query.cursor, prev: query.prev, page: query.page }}
            shown={deliveries.data.deliveries.length}
            pageSize={PAGE_SIZE}
            nextCursor={deliveries.data.nextCursor}
            noun={['delivery', 'deliveries']}
          />
        </>
      )}
    </div>
  );
}
