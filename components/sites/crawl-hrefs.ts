import { withQuery } from '@/components/ui/query-href';

/** The dashboard's view of one crawled URL (`run` for a past crawl whose URLs are still stored). */
export function urlViewHref(siteId: string, url: string, runId?: string): string {
  return withQuery(`/sites/${siteId}/pages/detail`, { url, run: runId });
}

/** A past crawl's reports on the History tab. */
export const runViewHref = (siteId: string, runId: string, view: '' | '/seo' | '/pages' = '') =>
  `/sites/${siteId}/history/${runId}${view}`;

/** A run history's links: a crawl opens its reports; a standalone accessibility scan has none. */
export const crawlReportsHref =
  (siteId: string) =>
  (run: { id: string; kind: 'crawl' | 'a11y' }): string | null =>
    run.kind === 'crawl' ? runViewHref(siteId, run.id) : null;

/** A status code as a word for the cases without one. */
export function statusLabel(statusCode: number | null, verdict?: string | null): string {
  if (statusCode !== null) return String(statusCode);
  if (verdict === 'skipped') return 'Not checked';
  if (verdict === null || verdict === undefined) return 'Queued';
  return 'No response';
}

/** The badge tone of an HTTP status: success 2xx, info 3xx, danger 4xx/5xx and no answer. */
export function statusTone(statusCode: number | null, verdict?: string | null) {
  if (statusCode === null) return verdict === 'skipped' || verdict === null ? 'neutral' : 'danger';
  if (statusCode < 300) return 'success';
  if (statusCode < 400) return statusCode === 304 ? 'danger' : 'info';
  return 'danger';
}
