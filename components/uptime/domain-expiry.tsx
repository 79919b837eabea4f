import type { UptimeMonitor } from '@/components/api/types';
import { cx } from '@/components/ui/cx';
import { formatDateTime } from '@/lib/format';
import { expiryWords } from './region-cards';

const DAY_MS = 86_400_000;
/** The domain warnings' first threshold (lib/uptime/domain-expiry.ts: 30, 14 and 7 days). */
const DOMAIN_WARNING_DAYS = 30;

/** Where there is no date, why, in a few words (the note below says more). */
const NO_DATE: Record<NonNullable<UptimeMonitor['domain_expiry_state']>, string> = {
  found: 'not known',
  no_expiry: 'not published',
  not_found: 'not registered',
  no_rdap: 'no RDAP server',
  failed: 'read failed',
  pending: 'not read yet',
  none: 'no registration',
};

/**
 * The registration expiry of the monitor's domain, read through RDAP, beside the certificate's in the
 * region cards and in the same style: the date and the days left, red inside the first warning's 30
 * days; otherwise what is known in words (no RDAP server for the suffix, not read yet, a failed read).
 */
export function DomainExpiry({ monitor }: { monitor: UptimeMonitor }) {
  if (monitor.domain_expiry_state === null) return null;
  const expiresAt = monitor.domain_expires_at;
  const daysLeft = expiresAt === null ? null : Math.floor((expiresAt - Date.now()) / DAY_MS);
  return (
    <dl className="mt-3 grid max-w-xl grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm shadow-xs">
      <dt className="text-zinc-600">Domain{monitor.domain ? ` ${monitor.domain}` : ''} expires</dt>
      <dd
        className={cx(
          'text-right',
          daysLeft !== null && daysLeft < DOMAIN_WARNING_DAYS
            ? 'font-semibold text-red-800'
            : 'text-zinc-900',
        )}
      >
        {expiresAt === null ? NO_DATE[monitor.domain_expiry_state] : expiryWords(expiresAt, daysLeft ?? 0)}
      </dd>
      {monitor.domain_expiry_note ? (
        <dd className="col-span-2 text-xs text-zinc-700">{monitor.domain_expiry_note}</dd>
      ) : null}
      {monitor.domain_expiry_checked_at === null ? null : (
        <>
          <dt className="text-xs text-zinc-600">Read from the registry (RDAP)</dt>
          <dd className="text-right text-xs text-zinc-900">
            {formatDateTime(monitor.domain_expiry_checked_at)}
          </dd>
        </>
      )}
    </dl>
  );
}
