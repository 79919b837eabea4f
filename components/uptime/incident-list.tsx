import type { UptimeIncident } from '@/components/api/types';
import { formatDateTime, formatDuration } from '@/lib/format';
import { usePlaces } from './places';
import { CAUSE_WORDS, failureWords, formatMs, parseIncidentRegions } from './words';

/** Why probing stopped, for an incident that ended with it. */
const STOPPED_WORDS = {
  monitor: 'the monitor was paused',
  app: "the site's Uptime app was turned off",
  allowance: 'held past the monitor allowance',
} as const;

/**
 * Incidents newest first, as a timeline: when the outage was confirmed and when it recovered (or
 * that it is ongoing), how long it lasted, the majority cause, and what every region saw in the
 * round that confirmed it.
 */
export function IncidentList({
  incidents,
  at = Date.now(),
  answeringSince = null,
}: {
  incidents: UptimeIncident[];
  /** The instant the list was read at: an ongoing incident's length runs to it. */
  at?: number;
  /** While the open incident's recovery is being confirmed: when the target answered again. */
  answeringSince?: number | null;
}) {
  const places = usePlaces();
  if (incidents.length === 0) {
    return (
      <p className="text-sm text-zinc-600">
        No incidents. An incident opens when two or more {places.unit}s find the URL down in the same round,
        and closes after two healthy rounds in a row.
      </p>
    );
  }
  const newestFirst = [...incidents].sort((a, b) => b.down_at - a.down_at);
  return (
    <ol aria-label="Incidents, newest first" className="space-y-3 border-l-2 border-zinc-200 pl-4">
      {newestFirst.map((incident) => {
        const regions = parseIncidentRegions(incident.regions);
        const ongoing = incident.recovered_at === null;
        const end = incident.recovered_at ?? at;
        return (
          <li
            key={incident.id}
            className="relative rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs"
          >
            <span
              aria-hidden="true"
              className={`absolute top-4 -left-[1.45rem] size-3 rounded-full ring-2 ring-white ${ongoing ? 'bg-red-700' : 'bg-zinc-500'}`}
            />
            <p className="text-sm font-semibold text-zinc-900">
              {ongoing ? (answeringSince !== null ? 'Recovering: ' : 'Ongoing: ') : ''}down{' '}
              {formatDateTime(incident.down_at)}
              {ongoing ? '' : ` to ${formatDateTime(incident.recovered_at)}`} (
              {formatDuration(end - incident.down_at)})
            </p>
            <p className="mt-1 text-sm text-zinc-700">
              Cause: {incident.cause ? CAUSE_WORDS[incident.cause] : 'not known'}
            </p>
            {incident.closed_by && incident.closed_by !== 'recovery' ? (
              <p className="mt-1 text-sm text-zinc-700">
                Ended when probing stopped ({STOPPED_WORDS[incident.closed_by]}), not by a recovery.
              </p>
            ) : null}
            {regions.length > 0 ? (
              <ul
                aria-label="What each region saw"
                className="mt-2 grid gap-x-4 gap-y-0.5 text-xs text-zinc-700 sm:grid-cols-2"
              >
                {regions.map((r) => (
                  <li key={r.region}>
                    <span className="font-medium">{places.names[r.region]}:</span>{' '}
                    {r.ok
                      ? `answered${r.status === null ? '' : ` HTTP ${r.status}`} in ${formatMs(r.totalMs)}`
                      : `failed: ${failureWords({ cause: r.cause, statusCode: r.status })}`}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
