'use client';

import { useState } from 'react';
import { failureMessage, requestJson, useResource } from '@/components/api/client';
import type { Billing } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { FormError } from '@/components/ui/field';
import { formatDateTime, formatNumber } from '@/components/ui/format';
import {
  Alert,
  EmptyState,
  LoadError,
  Loading,
  PlainSection,
  Section,
  Skeleton,
} from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);

export function BillingView() {
  const billing = useResource<Billing>('/v1/billing');
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (billing.error) {
    return <LoadError title="Could not load billing" error={billing.error} onRetry={billing.reload} />;
  }
  if (!billing.data) {
    return (
      <Loading label="Loading billing">
        <Skeleton className="mb-4 h-28 w-full" />
        <Skeleton className="h-48 w-full" />
      </Loading>
    );
  }
  const b = billing.data;

  async function toggle() {
    setSaving(true);
    setError(null);
    try {
      await requestJson('/v1/billing', { method: 'PATCH', body: { overageEnabled: !b.overageEnabled } });
      await billing.reload();
      setMessage(!b.overageEnabled ? 'Overage billing is on.' : 'Overage billing is off.');
    } catch (e) {
      setError(failureMessage(e, 'Could not change overage billing.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="space-y-8">
      <Section
        title="Overage"
        description="What happens when a site reaches an allowance or you need more sites."
      >
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="max-w-xl text-sm text-zinc-700">
            <p id="overage-description">
              {b.overageEnabled
                ? 'On: apps keep running past their allowances and you can add sites and monitors freely. The excess is metered and billed.'
                : 'Off: an app pauses for the rest of the month when a site reaches its allowance, and new sites past the included count are refused. Nothing is billed beyond your subscription.'}
            </p>
          </div>
          <div className="flex items-center gap-3">
            <span id="overage-label" className="text-sm font-medium text-zinc-900">
              Overage billing
            </span>
            <button
              type="button"
              role="switch"
              aria-checked={b.overageEnabled}
              aria-labelledby="overage-label"
              aria-describedby="overage-description"
              disabled={saving}
              onClick={toggle}
              className={cx(
                'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors disabled:opacity-60',
                b.overageEnabled ? 'bg-accent-600' : 'bg-zinc-400',
              )}
            >
              <span
                aria-hidden="true"
                className={cx(
                  'inline-block size-5 rounded-full bg-white shadow transition-transform',
                  b.overageEnabled ? 'translate-x-5' : 'translate-x-0',
                )}
              />
            </button>
          </div>
        </div>
        <p role="status" className="mt-3 text-sm text-green-800 empty:hidden">
          {message}
        </p>
        <FormError className="mt-3">{error}</FormError>
      </Section>

      {b.pausedSites.length > 0 ? (
        <Alert tone="warning" title="Paused at allowance">
          <ul className="mt-1 list-disc pl-5">
            {b.pausedSites.map((p) => (
              <li key={`${p.siteId}-${p.app}`}>
                {p.hostname}: {p.app === 'crawl' ? 'crawling' : 'accessibility scans'} paused since{' '}
                {formatDateTime(p.pausedAt)}
              </li>
            ))}
          </ul>
          <p className="mt-2">Turn overage on to resume them, or wait for next month.</p>
        </Alert>
      ) : null}

      <PlainSection titleId="bill-title" title={`Projected bill for ${b.projected.period}`}>
        {b.projected.lines.length === 0 ? (
          <EmptyState
            title="Nothing beyond your subscription"
            description="Usage is within your included allowances this month."
          />
        ) : (
          <Table caption={`Projected overage charges for ${b.projected.period}`}>
            <thead>
              <tr>
                <Th>Item</Th>
                <Th>Site</Th>
                <Th className="text-right">Quantity</Th>
                <Th className="text-right">Price</Th>
                <Th className="text-right">Amount</Th>
              </tr>
            </thead>
            <tbody>
              {b.projected.lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and keep their order
                <tr key={i}>
                  <Td>{line.description}</Td>
                  <Td>{line.hostname ?? 'All sites'}</Td>
                  <Td className="text-right tabular-nums">
                    {formatNumber(line.quantity)} {line.unit}
                  </Td>
                  <Td className="text-right tabular-nums whitespace-nowrap">
                    {money(line.unitPriceCents, b.projected.currency)}
                    {line.per > 1 ? ` / ${formatNumber(line.per)}` : ''}
                  </Td>
                  <Td className="text-right tabular-nums">{money(line.amountCents, b.projected.currency)}</Td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th
                  scope="row"
                  colSpan={4}
                  className="px-4 py-3 text-right text-sm font-semibold text-zinc-900"
                >
                  Total
                </th>
                <Td className="text-right font-semibold tabular-nums">
                  {money(b.projected.totalCents, b.projected.currency)}
                </Td>
              </tr>
            </tfoot>
          </Table>
        )}
      </PlainSection>
    </div>
  );
}
