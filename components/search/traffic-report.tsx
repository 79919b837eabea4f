import Link from 'next/link';
import type { SearchAnalytics } from '@/components/api/types';
import { Badge, Section, Stat } from '@/components/ui/surface';
import { formatNumber } from '@/lib/format';
import { TrafficChart } from './traffic-chart';
import { formatChange, formatCtr, formatDay, formatPosition, rangeTotals } from './words';

const RANGES = [28, 90] as const;

/**
 * The connected property's traffic: the last 7 final days against the 7 before (what the drop alert
 * watches), the range's totals with CTR and average position, and the daily chart and table.
 */
export function TrafficReport({
  siteId,
  analytics,
  days,
}: {
  siteId: string;
  analytics: SearchAnalytics;
  days: number;
}) {
  const { comparison, series } = analytics;
  const totals = rangeTotals(series);
  if (analytics.syncedAt === null && series.length === 0) {
    return (
      <Section id="search-traffic" title="Search traffic" headingLevel={3}>
        <p className="text-sm text-zinc-600">
          The first sync fetches the last 90 days from Search Console; clicks, impressions and the weekly
          comparison appear here when it has run (usually within a few minutes).
        </p>
      </Section>
    );
  }
  return (
    <>
      <Section
        id="search-comparison"
        title="Last 7 days against the 7 before"
        headingLevel={3}
        description={
          comparison
            ? `${formatDay(comparison.last7.from)} to ${formatDay(comparison.last7.to)}, against ${formatDay(comparison.previous7.from)} to ${formatDay(comparison.previous7.to)}. Search Console’s figures become final two to three days after the day.`
            : undefined
        }
        actions={
          comparison?.drop ? (
            <Badge tone="danger">Traffic drop</Badge>
          ) : comparison ? (
            <Badge>No drop</Badge>
          ) : null
        }
      >
        {comparison ? (
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Stat
              label="Clicks"
              value={formatNumber(comparison.last7.clicks)}
              hint={`${formatChange(comparison.clicksChangePct)} (${formatNumber(comparison.previous7.clicks)} the 7 days before)`}
            />
            <Stat
              label="Impressions"
              value={formatNumber(comparison.last7.impressions)}
              hint={`${formatChange(comparison.impressionsChangePct)} (${formatNumber(comparison.previous7.impressions)} the 7 days before)`}
            />
          </dl>
        ) : (
          <p className="text-sm text-zinc-600">
            Search Console has no final day with impressions for this property yet.
          </p>
        )}
      </Section>
      <Section
        id="search-traffic"
        title="Clicks and impressions"
        headingLevel={3}
        actions={
          <nav
            aria-label="Range"
            className="inline-flex rounded-md border border-zinc-300 bg-white p-0.5 shadow-xs"
          >
            {RANGES.map((range) => (
              <Link
                key={range}
                href={`/sites/${siteId}/search?days=${range}`}
                scroll={false}
                aria-current={range === days ? 'page' : undefined}
                className="rounded px-3 py-1 text-sm text-zinc-700 hover:bg-zinc-100 aria-[current=page]:bg-accent-600 aria-[current=page]:text-white"
              >
                {range} days
              </Link>
            ))}
          </nav>
        }
      >
        {series.length === 0 ? (
          <p className="text-sm text-zinc-600">No day with impressions in the last {days} days.</p>
        ) : (
          <div className="space-y-5">
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Stat label="Clicks" value={formatNumber(totals.clicks)} hint={`${days} days`} />
              <Stat label="Impressions" value={formatNumber(totals.impressions)} hint={`${days} days`} />
              <Stat label="CTR" value={formatCtr(totals.ctr)} hint="clicks ÷ impressions" />
              <Stat
                label="Avg. position"
                value={formatPosition(totals.position)}
                hint="weighted by impressions"
              />
            </dl>
            <TrafficChart series={series} days={days} />
          </div>
        )}
      </Section>
    </>
  );
}
