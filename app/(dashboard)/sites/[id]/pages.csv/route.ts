import { pagesQuery } from '@/lib/api/schemas/history';
import { listCrawledUrls, MAX_PAGES_PAGE, queryFromSearch } from '@/lib/dashboard/crawl';
import { csvDownload } from '@/lib/dashboard/csv';

const COLUMNS = [
  'url',
  'kind',
  'depth',
  'status_code',
  'final_status_code',
  'redirect_target',
  'verdict',
  'content_type',
  'title',
  'inlinks',
  'outlinks',
  'response_ms',
  'detail',
  'found_on',
] as const;

/**
 * The Pages tab as CSV: every crawled URL its filters match, in its sort (`?run=` for a past crawl
 * whose URLs are still stored), read 500 rows at a time along the keyset cursor and streamed.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return csvDownload(
    req,
    params,
    (host) => `${host}-pages.csv`,
    COLUMNS,
    async function* ({ db, principal, siteId, search, runId }) {
      const { cursor: _from, limit: _size, ...query } = queryFromSearch(pagesQuery, search);
      let cursor: string | undefined;
      do {
        const page = await listCrawledUrls(
          db,
          principal,
          { siteId, runId },
          {
            ...query,
            limit: MAX_PAGES_PAGE,
            cursor,
          },
        );
        for (const row of page.pages) yield COLUMNS.map((column) => row[column]);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
  );
}
