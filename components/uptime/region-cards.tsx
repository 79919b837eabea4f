import type { MonitorLive, RegionProbe, RoundConsensus } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { formatDate, formatDateTime } from '@/lib/format';
import { usePlaces } from './places';
import { errorBeyondVerdict, formatMs, probeVerdict } from './words';

const DAY_MS = 86_400_000;
/** The certificate warnings' first threshold (lib/uptime: 14 and 3 days). */
const CERT_WARNING_DAYS = 14;

/**
 * Each region's latest probe: the verdict in words (with a glyph, not colour alone), HTTP status,
 * total time, the phases of the final connection (DNS, connect, TLS, first byte) and the
 * certificate's expiry.
 */
export function RegionCards({
  regions,
  consensus,
}: {
  regions: MonitorLive['regions'];
  consensus: RoundConsensus | null;
}) {
  const places = usePlaces();
  return (
    <ul
      aria-label={places.probedFrom === 'regions' ? 'Latest probe per region' : 'Latest result of each probe'}
      className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-4"
    >
      {regions.map(({ region, probe }) => (
        <li
          key={region}
          className={cx(
            'rounded-lg border bg-white px-4 py-3 shadow-xs',
            probe && !probe.ok ? 'border-red-300' : 'border-zinc-200',
          )}
        >
          <h4 className="text-sm font-semibold text-zinc-900">{places.names[region]}</h4>
          {probe ? (
            <ProbeDetails probe={probe} slow={consensus?.slowRegions.includes(region) ?? false} />
          ) : (
            <p className="mt-1 text-sm text-zinc-600">No probe yet.</p>
          )}
        </li>
      ))}
    </ul>
  );
}

function ProbeDetails({ probe, slow }: { probe: RegionProbe; slow: boolean }) {
  const { phases } = probe;
  const daysLeft =
    probe.tlsCertExpiresAt === null ? null : Math.floor((probe.tlsCertExpiresAt - Date.now()) / DAY_MS);
  return (
    <>
      <p
        className={cx(
          'mt-1 text-sm font-medium',
          !probe.ok ? 'text-red-800' : slow ? 'text-amber-900' : 'text-green-800',
        )}
      >
        <span aria-hidden="true">{!probe.ok ? '✕ ' : slow ? '! ' : '✓ '}</span>
        {probeVerdict(probe)}
        {slow ? ', slow' : ''}
      </p>
      {errorBeyondVerdict(probe) ? (
        <p className="mt-1 text-xs break-words text-zinc-700">{errorBeyondVerdict(probe)}</p>
      ) : null}
      <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
        <Timing term="Total" ms={probe.totalMs} strong />
        <Timing term="DNS" ms={phases.dnsMs} />
        <Timing term="Connect" ms={phases.connectMs} />
        <Timing term="TLS" ms={phases.tlsMs} />
        <Timing term="First byte" ms={phases.firstByteMs} />
        <div className="col-span-2 flex justify-between gap-2">
          <dt className="text-zinc-600">Certificate expires</dt>
          <dd
            className={cx(
              'text-right',
              daysLeft !== null && daysLeft < CERT_WARNING_DAYS
                ? 'font-semibold text-red-800'
                : 'text-zinc-900',
            )}
          >
            {probe.tlsCertExpiresAt === null || daysLeft === null
              ? 'no HTTPS'
              : expiryWords(probe.tlsCertExpiresAt, daysLeft)}
          </dd>
        </div>
        <div className="col-span-2 flex justify-between gap-2">
          <dt className="text-zinc-600">Checked</dt>
          <dd className="text-right text-zinc-900">
            {formatDateTime(probe.checkedAt)}
            {probe.attempts === 2 ? ', after a retry' : ''}
          </dd>
        </div>
      </dl>
    </>
  );
}

/** An expiry date and the days left to it (`daysLeft` below 0: expired), the certificate's and the domain's. */
export function expiryWords(expiresAt: number, daysLeft: number): string {
  return daysLeft < 0
    ? `${formatDate(expiresAt)} (expired)`
    : `${formatDate(expiresAt)} (in ${daysLeft} day${daysLeft === 1 ? '' : 's'})`;
}

function Timing({ term, ms, strong }: { term: string; ms: number | null; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-zinc-600">{term}</dt>
      <dd className={cx('tabular-nums', strong ? 'font-semibold text-zinc-900' : 'text-zinc-900')}>
        {ms === null ? 'n/a' : formatMs(ms)}
      </dd>
    </div>
  );
}
