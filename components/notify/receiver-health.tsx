'use client';

import Link from 'next/link';
import type { ReceiverHealth, ReceiversResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { WEBHOOK_KIND_LABELS } from '@/components/uptime/words';
import { formatDateTime } from '@/lib/format';

/**
 * A webhook receiver's circuit breaker and lane in words (lib/notify/breaker.ts): the delivery log
 * shows it on each delivery, the settings page for every receiver.
 */

type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

export function healthWords(h: ReceiverHealth): { tone: Tone; label: string; detail: string | null }[] {
  const words: { tone: Tone; label: string; detail: string | null }[] = [];
  const failures = `${h.consecutiveFailures} failed ${h.consecutiveFailures === 1 ? 'attempt' : 'attempts'} in a row`;
  if (h.circuit === 'open') {
    words.push({
      tone: 'danger',
      label: 'Circuit open',
      detail: `${failures}: nothing is sent until ${h.retryAt === null ? 'later' : formatDateTime(h.retryAt)}, then one trial delivery.`,
    });
  } else if (h.circuit === 'half-open') {
    words.push({
      tone: 'warning',
      label: 'Circuit half-open',
      detail: `${failures}: the next delivery is a trial; if it is accepted the rest follow.`,
    });
  } else if (h.consecutiveFailures > 0) {
    words.push({ tone: 'warning', label: 'Failing', detail: `${failures}.` });
  }
  if (h.slow) {
    words.push({
      tone: 'info',
      label: 'Slow',
      detail: 'Its last send timed out or took over 2 seconds: it is sent to by the slow lane.',
    });
  }
  if (words.length === 0) words.push({ tone: 'success', label: 'Healthy', detail: null });
  return words;
}

/** The badges alone, with their details for screen readers and on hover. */
export function ReceiverHealthBadges({ health }: { health: ReceiverHealth }) {
  return (
    <span className="flex flex-wrap gap-1">
      {healthWords(health).map((w) => (
        <span key={w.label} title={w.detail ?? undefined}>
          <Badge tone={w.tone}>{w.label}</Badge>
          {w.detail ? <span className="sr-only"> {w.detail}</span> : null}
        </span>
      ))}
    </span>
  );
}

/** Every webhook the organization sent to, with its circuit, lane and last failure. */
export function ReceiverHealthSection() {
  const receivers = useApi<ReceiversResponse>('/v1/notifications/receivers');
  return (
    <Section
      id="receiver-health"
      title="Webhook health"
      description="A webhook that fails 3 times in a row is paused (its circuit opens) for 30 seconds, then longer each time, and tried again with one delivery; a success resumes it. Slow webhooks are sent to by workers of their own."
    >
      {receivers.error ? (
        <LoadError
          title="Could not load the webhooks' health"
          error={receivers.error}
          onRetry={receivers.mutate}
        />
      ) : !receivers.data ? (
        <Loading label="Loading the webhooks' health">
          <Skeleton className="h-24 w-full" />
        </Loading>
      ) : receivers.data.receivers.length === 0 ? (
        <p className="text-sm text-zinc-600">No webhook has been sent to yet.</p>
      ) : (
        <ResponsiveTable
          caption="Webhooks sent to, those needing attention first"
          rows={receivers.data.receivers}
          rowKey={(r) => `${r.kind} ${r.url} ${r.health.lastFailureAt ?? ''} ${r.health.lastSuccessAt ?? ''}`}
          title={{
            key: 'webhook',
            header: 'Webhook',
            className: 'break-all',
            cell: (r) => (
              <span>
                <span className="font-medium text-zinc-900">{WEBHOOK_KIND_LABELS[r.kind]}</span>
                <span className="block text-xs text-zinc-600">{r.url}</span>
              </span>
            ),
          }}
          columns={[
            {
              key: 'status',
              header: 'Status',
              cell: (r) => (
                <span className="space-y-1">
                  <ReceiverHealthBadges health={r.health} />
                  {healthWords(r.health)
                    .filter((w) => w.detail && w.tone !== 'info')
                    .map((w) => (
                      <span key={w.label} aria-hidden="true" className="block text-xs text-zinc-700">
                        {w.detail}
                      </span>
                    ))}
                </span>
              ),
            },
            {
              key: 'failure',
              header: 'Last failure',
              cell: (r) =>
                r.health.lastFailureAt === null ? (
                  '—'
                ) : (
                  <span className="text-xs">
                    {formatDateTime(r.health.lastFailureAt)}
                    {r.health.lastFailure ? (
                      <span className="block text-zinc-700">{r.health.lastFailure}</span>
                    ) : null}
                  </span>
                ),
            },
            {
              key: 'waiting',
              header: 'Waiting',
              className: 'whitespace-nowrap',
              cell: (r) => `${r.waiting} ${r.waiting === 1 ? 'delivery' : 'deliveries'}`,
            },
          ]}
        />
      )}
      {receivers.data?.receivers.some((r) => r.health.circuit !== 'closed' && r.waiting > 0) ? (
        <p className="mt-3 text-sm text-zinc-700">
          Deliveries held by a paused webhook wait, their attempts untouched:{' '}
          <Link href="/notifications/deliveries?state=pending" className="text-accent-700 underline">
            see the waiting deliveries in the delivery log
          </Link>
          .
        </p>
      ) : null}
    </Section>
  );
}
