import { attachmentResponse } from '@/lib/api/file';
import { getDb } from '@/lib/db/client';
import { InvalidError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { runIdFromSearch, type SearchParams } from './crawl';
import { type DashboardContext, isCompleteContext, loadDashboardContext } from './session';

/*
 * CSV that no spreadsheet runs (OWASP, "CSV Injection"). Exports hold text strangers wrote (link text,
 * titles, URLs of any site crawled), and a spreadsheet treats a cell starting with =, +, -, @, tab or
 * carriage return as a formula. Quoting every cell is not enough on its own: a spreadsheet set to split
 * on `;` (most of Europe) or tabs, or a tool that splits on `,` without honouring quotes, starts a new
 * cell in the middle of the text (`text;=HYPERLINK(...)`), and may strip the whitespace or a quote
 * mark in front of the `=`. So the start of the value and of every part after a separator (`,`, `;`,
 * tab, a line break) whose first character past whitespace and quote marks is a formula trigger gets
 * a `'` in front, which every spreadsheet reads as "text". The full-width forms (＝＋－＠) are
 * included: some spreadsheets fold them into their ASCII forms when reading.
 *
 * The cost is that such text reads with a `'` added where it was (`a,'-b` in a URL): the data is
 * shown, never run. Numbers the service wrote itself (a JavaScript number, such as a count or a status
 * code) cannot be a formula and are left as they are.
 */
const SEPARATORS = new Set([',', ';', '\t', '\r', '\n']);
/** A formula trigger, past any whitespace and quote marks, at the position it is tried at (sticky). */
const FORMULA_START = /[\s"']*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/y;

/** Text with each part a spreadsheet could read as a formula defused (see above). */
export function neutralizeFormulas(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (i === 0 || SEPARATORS.has(text[i - 1] as string)) {
      FORMULA_START.lastIndex = i;
      if (FORMULA_START.test(text)) out += "'";
    }
    out += text[i];
  }
  return out;
}

/** One CSV field: always quoted (RFC 4180, `"` doubled), its text defused so no spreadsheet runs it. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  const text =
    typeof value === 'number' && Number.isFinite(value) ? String(value) : neutralizeFormulas(String(value));
  return `"${text.replace(/"/g, '""')}"`;
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
