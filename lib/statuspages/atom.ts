import { CAUSES } from '@/lib/notify/message';
import { IMPACT_WORDS, incidentName, UPDATE_WORDS } from './html';
import { maintenanceEntries, maintenanceUpdated } from './maintenance';
import { clockLabel, dayLabel, durationLabel, escapeXml as e, rfc3339 } from './markup';
import type { PublicIncident, PublicStatus } from './public';

/*
 * The page's incidents as an Atom feed (RFC 4287): one entry per incident of the listed monitors
 * and per manual incident of the page in the last 90 days, newest first. An entry's id is the
 * incident's (urn:uuid), so a feed reader shows a resolution or a posted update as an update of
 * the entry it already has, not a new one; the entry's content carries the updates, newest first.
 * The feed's `updated` is the latest change of any entry (or the page's last edit), never the time
 * of the request, so an unchanged feed is byte for byte the same.
 */

/** When an entry last changed: its latest update, its resolution or its start. */
function changedAt(i: PublicIncident): number {
  return Math.max(i.startedAt, i.resolvedAt ?? 0, i.updates[0]?.at ?? 0);
}

function summaryOf(i: PublicIncident): string {
  const started = `${dayLabel(i.startedAt)}, ${clockLabel(i.startedAt)}`;
  if (i.kind === 'manual' || !i.monitor) {
    const impact = i.impact ? ` (${IMPACT_WORDS[i.impact].toLowerCase()})` : '';
    return i.resolvedAt === null
      ? `Ongoing since ${started}${impact}.`
      : `Started ${started}${impact}, resolved after ${durationLabel(i.resolvedAt - i.startedAt)}.`;
  }
  const cause = i.cause ? (CAUSES[i.cause] ?? i.cause) : 'outage';
  return i.resolvedAt === null
    ? `${i.monitor.name} has been failing since ${started}: ${cause}.`
    : `${i.monitor.name} failed at ${started} (${cause}) and recovered after ${durationLabel(i.resolvedAt - i.startedAt)}.`;
}

/** The updates as text, newest first: `Identified (28 Nov 2026, 10:02 UTC): message`. */
function updatesText(i: PublicIncident): string {
  return i.updates
    .map((u) => `${UPDATE_WORDS[u.status]} (${dayLabel(u.at)}, ${clockLabel(u.at)}): ${u.message}`)
    .join('\n\n');
}

export function renderAtom(status: PublicStatus): string {
  const { page } = status;
  const updated = Math.max(page.updatedAt, ...status.incidents.map(changedAt), maintenanceUpdated(status));
  const entries = status.incidents.map((i) => {
    const state = i.resolvedAt === null ? 'ongoing' : 'resolved';
    const content = i.updates.length
      ? `\n<content type="text">${e(`${summaryOf(i)}\n\n${updatesText(i)}`)}</content>`
      : '';
    return `<entry>
<id>urn:uuid:${e(i.id)}</id>
<title>${e(`${incidentName(i)} (${state})`)}</title>
<updated>${rfc3339(changedAt(i))}</updated>
<published>${rfc3339(i.startedAt)}</published>
<link rel="alternate" type="text/html" href="${e(`${page.url}#incident-${i.id}`)}"/>
<summary>${e(summaryOf(i))}</summary>${content}
</entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${e(page.url)}</id>
<title>${e(`${page.title}: incidents`)}</title>
<updated>${rfc3339(updated)}</updated>
<author><name>${e(page.title)}</name></author>
<link rel="self" type="application/atom+xml" href="${e(`${page.url}/feed.atom`)}"/>
<link rel="alternate" type="text/html" href="${e(page.url)}"/>
${[...entries, ...maintenanceEntries(status)].join('\n')}
</feed>
`;
}
