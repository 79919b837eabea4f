'use client';

import { useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { Billing, OrgUsage } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { cx } from '@/components/ui/cx';
import { FormError } from '@/components/ui/field';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import {
  Alert,
  Badge,
  EmptyState,
  LoadError,
  Loading,
  PlainSection,
  Section,
  Skeleton,
} from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);

/**
 * What is stopped at an allowance now: apps paused on a site for the rest of the month, and
 * uptime monitors held past the organization's pooled allowance (which no new month frees).
 */
export function AllowancePauses({ billing: b }: { billing: Pick<Billing, 'pausedSites' | 'monitorsHeld'> }) {
  if (b.pausedSites.length === 0 && b.monitorsHeld === 0) return null;
  return (
    <Alert tone="warning" title="Paused at allowance">
      <ul className="mt-1 list-disc pl-5">
        {b.pausedSites.map((p) => (
          <li key={`${p.siteId}-${p.app}`}>
            {p.hostname}: {p.app === 'crawl' ? 'crawling' : 'accessibility scans'} paused since{' '}
            {formatDateTime(p.pausedAt)}
          </li>
        ))}
        {b.monitorsHeld > 0 ? (
          <li>
            {b.monitorsHeld === 1 ? '1 uptime monitor' : `${b.monitorsHeld} uptime monitors`} held past the
            organization&apos;s monitor allowance (the newest are not probed)
          </li>
        ) : null}
      </ul>
      <p className="mt-2">
        Turn overage on to resume {b.pausedSites.length + b.monitorsHeld > 1 ? 'them' : 'it'}
        {b.pausedSites.length > 0 ? ', or wait for next month' : ''}
        {b.monitorsHeld > 0
          ? '. A held monitor also probes again when an older one is deleted or a site added'
          : ''}
        .
      </p>
    </Alert>
  );
}

export function BillingView() {
  const billing = useApi<Billing>('/v1/billing');
  const usage = useApi<OrgUsage>('/v1/usage');
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  if (billing.error) {
    return <LoadError title="Could not load billing" error={billing.error} onRetry={billing.mutate} />;
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

  async function setOverage(enabled: boolean) {
    setSaving(true);
    setError(null);
    try {
      await requestJson('/v1/billing', { method: 'PATCH', body: { overageEnabled: enabled } });
      await Promise.all([billing.mutate(), usage.mutate()]);
      setConfirming(false);
      setMessage(enabled ? 'Overage billing is on.' : 'Overage billing is off.');
    } catch (e) {
      setError(failureMessage(e, 'Could not change overage billing.'));
    } finally {
      setSaving(false);
    }
  }

  // Turning overage on costs money, so it asks first, with the prices and the bill it makes;
  // turning it off only stops what is beyond the allowances, and happens at once.
  function pressSwitch() {
    setMessage('');
    setError(null);
    if (b.overageEnabled) void setOverage(false);
    else setConfirming(true);
  }

  return (
    <div className="space-y-8">
      <SubscriptionSection billing={b} />

      <Section
        id="overage"
        title="Overage"
        description="What happens when a site reaches an allowance or you need more sites."
      >
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="max-w-xl text-sm text-zinc-700">
            <p id="overage-description">
              {b.overageEnabled
                ? 'On: apps keep running past their allowances and you can add sites and monitors freely. The excess is billed at the prices below.'
                : 'Off: an app pauses for the rest of the month when a site reaches its allowance, and new sites past the included count are refused. Nothing is billed beyond your subscription.'}
            </p>
          </div>
          <div className="flex items-center gap-3">
            <span id="overage-label" className="text-sm font-medium text-zinc-900">
              Overage billing
            </span>
            <button
              ref={toggleRef}
              type="button"
              role="switch"
              aria-checked={b.overageEnabled}
              aria-labelledby="overage-label"
              aria-describedby="overage-description"
              // Busy, not disabled: a switch that turned disabled would drop the focus to the body.
              aria-disabled={saving || undefined}
              onClick={saving ? undefined : pressSwitch}
              className={cx(
                'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors aria-disabled:opacity-60',
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
        <OveragePrices billing={b} className="mt-4" />
        <p role="status" className="mt-3 text-sm text-green-800 empty:hidden">
          {message}
        </p>
        {confirming ? null : <FormError className="mt-3">{error}</FormError>}
      </Section>

      <ConfirmDialog
        open={confirming}
        title="Turn overage billing on?"
        confirmLabel="Turn overage on"
        pending={saving}
        error={confirming ? error : null}
        returnFocus={toggleRef}
        onCancel={() => {
          setConfirming(false);
          setError(null);
        }}
        onConfirm={() => void setOverage(true)}
      >
        <p>
          Apps keep running past their allowances, and sites and monitors can be added past the included ones.
          What goes beyond the subscription is billed at these prices:
        </p>
        <OveragePrices billing={b} />
        <BillChange billing={b} />
      </ConfirmDialog>

      <AllowancePauses billing={b} />

      <PlainSection titleId="usage-title" title={`Usage this month (${b.projected.period})`}>
        {usage.error ? (
          <LoadError title="Could not load usage" error={usage.error} onRetry={usage.mutate} />
        ) : !usage.data ? (
          <Loading label="Loading usage">
            <Skeleton className="h-32 w-full" />
          </Loading>
        ) : (
          <UsageTable usage={usage.data} billing={b} />
        )}
      </PlainSection>

      <PlainSection titleId="bill-title" title={`Projected bill for ${b.projected.period}`}>
        <ProjectedBill billing={b} />
      </PlainSection>
    </div>
  );
}

/** The plan, its price and what it includes: what the bill starts from. */
function SubscriptionSection({ billing: b }: { billing: Billing }) {
  const { subscription: s } = b;
  return (
    <Section id="subscription" title="Subscription" description="What your plan includes every month.">
      <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-zinc-600">Plan</dt>
          <dd className="mt-1 font-medium text-zinc-900">{s.plan}</dd>
        </div>
        <div>
          <dt className="text-zinc-600">Price</dt>
          <dd className="mt-1 font-medium text-zinc-900">
            {s.priceCents === 0 ? 'No charge' : `${money(s.priceCents, b.projected.currency)} a month`}
          </dd>
        </div>
        <div>
          <dt className="text-zinc-600">Includes</dt>
          <dd className="mt-1 text-zinc-900">
            {formatNumber(s.includedSites)} {s.includedSites === 1 ? 'site' : 'sites'}; each month per site{' '}
            {formatNumber(s.allowances.pagesCrawled)} pages crawled,{' '}
            {formatNumber(s.allowances.pagesRendered)} pages rendered and{' '}
            {formatNumber(s.allowances.monitors)} uptime monitors (pooled)
          </dd>
        </div>
      </dl>
    </Section>
  );
}

const priceName: Record<Billing['prices'][number]['item'], string> = {
  'extra-site': 'Each site beyond the included ones',
  'pages-crawled': 'Pages crawled beyond a site’s allowance',
  'pages-rendered': 'Pages rendered beyond a site’s allowance',
  'extra-monitors': 'Each uptime monitor beyond the pooled allowance',
};

/** The overage price list. */
function OveragePrices({ billing: b, className }: { billing: Billing; className?: string }) {
  return (
    <div className={className}>
      <h3 className="text-sm font-semibold text-zinc-900">Overage prices</h3>
      <ul className="mt-1 space-y-1 text-sm text-zinc-700">
        {b.prices.map((p) => (
          <li key={p.item} className="flex flex-wrap justify-between gap-x-4">
            <span>{priceName[p.item]}</span>
            <span className="font-medium tabular-nums text-zinc-900">
              {money(p.unitPriceCents, b.projected.currency)}{' '}
              {p.per > 1 ? `per ${formatNumber(p.per)} pages` : `per ${p.unit} a month`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The month's bill now and with the switch flipped, at the usage so far. */
function BillChange({ billing: b }: { billing: Billing }) {
  const { currency } = b.projected;
  const before = b.projected.billCents;
  const after = b.projected.ifSwitched.billCents;
  return (
    <div className="rounded-md border border-zinc-200 bg-zinc-50 px-4 py-3">
      <p className="font-medium text-zinc-900">This month&apos;s bill at the usage so far</p>
      <dl className="mt-2 grid grid-cols-2 gap-2">
        <div>
          <dt className="text-zinc-600">Now</dt>
          <dd className="text-base font-semibold tabular-nums text-zinc-900">{money(before, currency)}</dd>
        </div>
        <div>
          <dt className="text-zinc-600">With overage on</dt>
          <dd className="text-base font-semibold tabular-nums text-zinc-900">{money(after, currency)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-zinc-600">
        {after > before
          ? `Turning overage on adds ${money(after - before, currency)} for what is already past the allowances. `
          : 'Nothing is past the allowances yet, so the bill does not change now. '}
        Usage beyond the allowances from now on adds to it at the prices above.
      </p>
    </div>
  );
}

/** The subscription, then what overage adds, then the total: the month's bill at its usage so far. */
function ProjectedBill({ billing: b }: { billing: Billing }) {
  const { currency } = b.projected;
  return (
    <div className="space-y-3">
      <Table caption={`Projected bill for ${b.projected.period}`}>
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
          <tr>
            <Td>{b.subscription.plan} plan subscription</Td>
            <Td>All sites</Td>
            <Td className="text-right tabular-nums">1 month</Td>
            <Td className="text-right tabular-nums whitespace-nowrap">
              {money(b.subscription.priceCents, currency)}
            </Td>
            <Td className="text-right tabular-nums">{money(b.projected.subscriptionCents, currency)}</Td>
          </tr>
          {b.projected.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and keep their order
            <tr key={i}>
              <Td>{line.description}</Td>
              <Td>{line.hostname ?? 'All sites'}</Td>
              <Td className="text-right tabular-nums">
                {formatNumber(line.quantity)} {line.unit}
              </Td>
              <Td className="text-right tabular-nums whitespace-nowrap">
                {money(line.unitPriceCents, currency)}
                {line.per > 1 ? ` / ${formatNumber(line.per)}` : ''}
              </Td>
              <Td className="text-right tabular-nums">
                {money(line.amountCents, currency)}
                {!b.overageEnabled && line.amountCents === 0 ? (
                  <span className="block text-xs text-zinc-600">not billed: overage is off</span>
                ) : null}
              </Td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4} className="px-4 py-3 text-right text-sm font-semibold text-zinc-900">
              Total
            </th>
            <Td className="text-right font-semibold tabular-nums">
              {money(b.projected.billCents, currency)}
            </Td>
          </tr>
        </tfoot>
      </Table>
      <p className="text-sm text-zinc-600">
        {b.projected.lines.length === 0
          ? 'No usage beyond the allowances this month: the bill is the subscription alone.'
          : b.overageEnabled
            ? 'Usage so far this month; what is used beyond the allowances until the month ends adds to it.'
            : `With overage off, what is past the allowances is not billed (it would add ${money(b.projected.ifSwitched.totalCents, currency)} with overage on).`}
      </p>
    </div>
  );
}

type UsageSite = OrgUsage['sites'][number];

/** The two metered apps: their usage field, allowance, what pauses at it and what runs meanwhile. */
const METERS = [
  {
    field: 'pages_crawled',
    header: 'Pages crawled',
    allowance: 'pagesCrawled',
    app: 'crawl',
    paused: 'Crawling paused',
    running: 'in the running crawl',
  },
  {
    field: 'pages_rendered',
    header: 'Pages rendered',
    allowance: 'pagesRendered',
    app: 'a11y',
    paused: 'Scans paused',
    running: 'in the running scan',
  },
] as const;
type Meter = { used: number; running: number; allowance: number };

/** How far into its allowance a site is: what the row's state says, most pressing first. */
function meterState(m: Meter): 'over' | 'near' | 'ok' {
  if (m.used >= m.allowance) return 'over';
  return m.used >= m.allowance * 0.8 ? 'near' : 'ok';
}

/**
 * Each site's usage this period against its allowances, so a pause is visible before it comes:
 * pages crawled and rendered (a running crawl or pass counts at once, as the allowance does) and
 * the uptime monitors configured. With overage off an app pauses at its allowance; with it on the
 * excess is billed (the projected bill below).
 */
function UsageTable({ usage, billing }: { usage: OrgUsage; billing: Billing }) {
  const { allowances } = usage;
  const paused = (siteId: string, app: 'crawl' | 'a11y') =>
    billing.pausedSites.some((p) => p.siteId === siteId && p.app === app);
  const live = usage.sites.filter((s) => !s.deleted);
  const monitorsUsed = live.reduce((n, s) => n + s.monitors, 0);
  if (usage.sites.length === 0) {
    return (
      <EmptyState title="No sites yet" description="Each site's usage shows here once it is registered." />
    );
  }
  return (
    <div className="space-y-3">
      <p className="max-w-3xl text-sm text-zinc-700">
        {billing.overageEnabled
          ? 'Overage is on: a site that reaches an allowance keeps running, and what it uses beyond it is billed.'
          : `Overage is off: when a site reaches ${formatNumber(allowances.pagesCrawled)} pages crawled its crawling pauses until next month, and at ${formatNumber(allowances.pagesRendered)} pages rendered its accessibility scans do.`}{' '}
        Monitors are pooled: {formatNumber(monitorsUsed)} of {formatNumber(allowances.monitors * live.length)}{' '}
        in use across the organization ({formatNumber(allowances.monitors)} per site).
      </p>
      <ResponsiveTable
        caption={`Each site's usage in ${usage.period} against its allowances`}
        rows={usage.sites}
        rowKey={(site) => site.site_id}
        title={{
          key: 'site',
          header: 'Site',
          cell: (site) => (
            <span className="font-medium text-zinc-900">
              {site.hostname}
              {site.deleted ? <span className="ml-1 font-normal text-zinc-600">(deleted)</span> : null}
            </span>
          ),
        }}
        columns={[
          ...METERS.map((m) => ({
            key: m.field,
            header: m.header,
            cell: (site: UsageSite) => (
              <UsageMeter
                meter={metered(site, m.field, allowances[m.allowance])}
                paused={paused(site.site_id, m.app) ? m.paused : null}
                overage={billing.overageEnabled}
                runningWord={m.running}
              />
            ),
          })),
          {
            // Pooled across the organization: the paragraph above sets the total against it.
            key: 'monitors',
            header: 'Monitors',
            numeric: true,
            cell: (site) =>
              site.deleted ? <span className="text-zinc-600">—</span> : formatNumber(site.monitors),
          },
        ]}
      />
    </div>
  );
}

function metered(site: UsageSite, field: 'pages_crawled' | 'pages_rendered', allowance: number): Meter {
  const running = site.in_progress[field];
  return { used: site[field] + running, running, allowance };
}

/** "1,234 of 5,000" with a bar for the eye (hidden from screen readers, who get the words). */
function UsageMeter({
  meter,
  paused,
  overage,
  runningWord,
}: {
  meter: Meter;
  paused: string | null;
  overage: boolean;
  runningWord: string;
}) {
  const state = meterState(meter);
  const share = meter.allowance === 0 ? 1 : Math.min(1, meter.used / meter.allowance);
  return (
    <div className="min-w-32">
      <p className="tabular-nums whitespace-nowrap">
        {formatNumber(meter.used)} <span className="text-zinc-600">of {formatNumber(meter.allowance)}</span>
      </p>
      <div aria-hidden="true" className="mt-1 h-1.5 w-full max-w-40 overflow-hidden rounded-full bg-zinc-200">
        <div
          className={cx(
            'h-full rounded-full',
            state === 'over'
              ? overage
                ? 'bg-accent-600'
                : 'bg-red-600'
              : state === 'near'
                ? 'bg-amber-500'
                : 'bg-green-600',
          )}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
      {meter.running > 0 ? (
        <p className="mt-1 text-xs text-zinc-600">
          {formatNumber(meter.running)} {runningWord}
        </p>
      ) : null}
      {paused ? (
        <p className="mt-1">
          <Badge tone="danger">{paused}</Badge>
        </p>
      ) : state === 'over' ? (
        <p className="mt-1">
          <Badge tone={overage ? 'info' : 'warning'}>
            {overage ? 'Past allowance: billed' : 'Allowance reached'}
          </Badge>
        </p>
      ) : state === 'near' ? (
        <p className="mt-1">
          <Badge tone="warning">Near allowance</Badge>
        </p>
      ) : null}
    </div>
  );
}
