import { attachmentResponse } from '@/lib/api/file';
import { getDb } from '@/lib/db/client';
import { InvalidError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { runIdFromSearch, type SearchParams } from './crawl';
import { type DashboardContext, isCompleteContext, loadDashboardContext } from './session';

/** One CSV field (RFC 4180 quoting); a leading =, +, - or @ is defused so spreadsheets never run it. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Epoch milliseconds as an ISO 8601 UTC timestamp, which every spreadsheet reads. */
export const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What a download's rows are read from: who asks, which site, the page's query and `?run=`. */
export type CsvSource = DashboardContext & {
  siteId: string;
  search: SearchParams;
  runId: string | undefined;
};

/**
 * A dashboard download (a route under a site's pages): the signed-in person's site (404 for one they
 * cannot see, 401 without a session) and the CSV streamed as `rows` yields lines, so a 100,000-row
 * export is never held whole. A service's not-found or invalid answer before the first line is the
 * status with its message.
 */
export async function csvDownload(
  req: Request,
  params: Promise<{ id: string }>,
  filename: (hostname: string) => string,
  header: readonly string[],
  rows: (source: CsvSource) => AsyncIterable<readonly unknown[]>,
): Promise<Response> {
  const siteId = (await params).id;
  const search: SearchParams = Object.fromEntries(new URL(req.url).searchParams);
  const context = await loadDashboardContext(await getDb(), req.headers);
  if (!context || !isCompleteContext(context)) return new Response('sign in to download\n', { status: 401 });
  let site: { hostname: string };
  try {
    site = await getVisibleSite(context.db, context.principal, siteId);
  } catch (error) {
    if (error instanceof NotFoundError) return new Response(`${error.message}\n`, { status: 404 });
    throw error;
  }
  const source = { ...context, siteId, search, runId: runIdFromSearch(search) };
  const iterator = rows(source)[Symbol.asyncIterator]();
  let first: IteratorResult<readonly unknown[]>;
  try {
    first = await iterator.next();
  } catch (error) {
    if (error instanceof NotFoundError) return new Response(`${error.message}\n`, { status: 404 });
    if (error instanceof InvalidError) return new Response(`${error.message}\n`, { status: 422 });
    throw error;
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(header)));
      if (!first.done) controller.enqueue(encoder.encode(csvLine(first.value)));
      if (first.done) controller.close();
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(csvLine(next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return attachmentResponse(body, {
    contentType: 'text/csv; charset=utf-8',
    filename: filename(site.hostname),
  });
}
