import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  runs,
  statusPageIncidents,
  statusPageIncidentUpdates,
  statusPageMonitors,
  statusPages,
  uptimeIncidents,
  uptimeMonitors,
  uptimePauses,
} from '@/lib/db/schema';
import { DAY_MS } from '@/lib/uptime/rollup';
import { maintenanceFingerprint } from './maintenance';
import { INCIDENT_DAYS } from './public';

/*
 * The public page's cache key, derived in Postgres from the rows the page is made of, in one
 * statement: the page row (every edit bumps updated_at), each listed monitor's status, name, URL
 * and pause state, its incidents (opened, recovered) and pauses, the page's manual incidents and
 * the updates posted on it, and, when the page shows them, its sites' latest runs. A probe round that changes nothing shown changes nothing here, so the
 * rendered page is reused; one that opens or closes an incident or moves a status changes it at
 * once. Nothing is kept between requests but what any process can recompute from the database,
 * so it holds for any number of server instances (hosted) and needs no invalidation step.
 *
 * Time changes the page too, only at known moments: the bars' days turn at UTC midnight, and while
 * an incident or a pause is open today's figure moves; so the UTC day, and then the minute, are in
 * the key.
 */

export interface PageFingerprint {
  pageId: string;
  /** Opaque; equal fingerprints mean an identical page. */
  tag: string;
}

export async function pageFingerprint(
  db: Db,
  slug: string,
  now = Date.now(),
): Promise<PageFingerprint | undefined> {
  const recentFrom = now - INCIDENT_DAYS * DAY_MS;
  const [row] = await queryRows<{ id: string; tag: string; moving: boolean }>(
    db,
    sql`select p.id as id,
        md5(concat_ws('|', p.id, p.updated_at,
          (select string_agg(concat_ws(':', m.id, m.status, m.status_since, m.enabled, m.name, m.url), ','
                             order by l.position)
             from ${statusPageMonitors} l join ${uptimeMonitors} m on m.id = l.monitor_id and m.tenant_id = p.tenant_id
            where l.status_page_id = p.id),
          (select concat_ws(':', count(*), max(i.created_at), max(i.recovered_at), count(i.recovered_at))
             from ${statusPageMonitors} l join ${uptimeIncidents} i on i.monitor_id = l.monitor_id and i.tenant_id = p.tenant_id
            where l.status_page_id = p.id and (i.recovered_at is null or i.recovered_at > ${recentFrom}::bigint)),
          (select concat_ws(':', count(*), max(u.started_at), max(u.ended_at), count(u.ended_at))
             from ${statusPageMonitors} l join ${uptimePauses} u on u.monitor_id = l.monitor_id and u.tenant_id = p.tenant_id
            where l.status_page_id = p.id),
          ${maintenanceFingerprint(now, recentFrom)},
          (select concat_ws(':', count(*), max(x.started_at), max(x.resolved_at), count(x.resolved_at))
             from ${statusPageIncidents} x where x.status_page_id = p.id),
          (select concat_ws(':', count(*), max(w.created_at))
             from ${statusPageIncidentUpdates} w where w.status_page_id = p.id),
          case when p.show_a11y_score = 1 or p.show_broken_links = 1 then
            (select concat_ws(':', count(*), max(r.started_at), max(r.finished_at))
               from ${runs} r
              where r.tenant_id = p.tenant_id
                and r.site_id in (select m.site_id from ${statusPageMonitors} l
                                    join ${uptimeMonitors} m on m.id = l.monitor_id where l.status_page_id = p.id))
          end)) as tag,
        exists (select 1 from ${statusPageMonitors} l join ${uptimeIncidents} i on i.monitor_id = l.monitor_id
                 where l.status_page_id = p.id and i.recovered_at is null)
          or exists (select 1 from ${statusPageMonitors} l join ${uptimePauses} u on u.monitor_id = l.monitor_id
                 where l.status_page_id = p.id and u.ended_at is null)
          or exists (select 1 from ${statusPageIncidents} x
                 where x.status_page_id = p.id and x.resolved_at is null) as moving
      from ${statusPages} p where p.slug = ${slug} and p.published = 1`,
  );
  if (!row) return undefined;
  const day = Math.floor(now / DAY_MS);
  const clock = row.moving ? `${day}.${Math.floor(now / 60_000)}` : String(day);
  return { pageId: row.id, tag: `${row.tag}.${clock}` };
}
