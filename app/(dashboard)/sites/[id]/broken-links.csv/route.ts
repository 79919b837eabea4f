import { brokenTargetsQuery } from '@/lib/api/schemas/crawl-views';
import { matchingBrokenTargets, queryFromSearch } from '@/lib/dashboard/crawl';
import { csvDownload, isoTime } from '@/lib/dashboard/csv';

const HEADER = [
  'target_url',
  'status',
  'status_code',
  'kind',
  'detail',
  'linking_pages',
  'first_seen',
  'new_since_previous_run',
  'source_url',
  'link_text',
  'link_selector',
  'redirect_chain',
];

/**
 * The Broken links tab as CSV: every (target, linking page) row of the targets the tab's filters
 * match, in its sort (`?run=` for a past crawl); not one page of it.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return csvDownload(
    req,
    params,
    (host) => `${host}-broken-links.csv`,
    HEADER,
    async function* ({ db, principal, siteId, search, runId }) {
      const query = queryFromSearch(brokenTargetsQuery, search);
      const { targets } = await matchingBrokenTargets(db, principal, { siteId, runId }, query);
      for (const t of targets) {
        for (const s of t.allSources) {
          yield [
            t.target_url,
            t.status,
            t.status_code,
            t.kind,
            t.detail,
            t.linking_pages,
            isoTime(t.first_seen),
            t.is_new ? 'yes' : 'no',
            s.source_url,
            s.link_text,
            s.link_selector,
            t.hops.map((hop) => `${hop.status ?? '?'} ${hop.url}`).join(' -> '),
          ];
        }
      }
    },
  );
}
