import type { ReactNode } from 'react';
import { Suspense } from 'react';
import { RefreshOnCrawlEnd } from './refresh-on-crawl-end';
import { ReportSkeleton } from './report-skeleton';

/**
 * A report tab's frame: its heading, the line that follows a running crawl (and re-renders the
 * report when it ends), and the report itself behind a skeleton that shows again whenever the URL's
 * query changes (a sort, a filter, another page), since the server reads the report anew.
 */
export function ReportSection({
  id,
  title,
  level = 2,
  siteId,
  search,
  loading,
  before,
  children,
}: {
  id: string;
  title: string;
  level?: 2 | 3;
  /** Follow the site's crawls (the latest crawl's reports); omitted for a past crawl's. */
  siteId?: string;
  /** The page's query: a new one shows the skeleton while the report is read. */
  search: Record<string, unknown>;
  /** "Loading the crawled URLs". */
  loading: string;
  /** Shown above the report, outside the skeleton (a back link). */
  before?: ReactNode;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className="space-y-4">
      {before}
      <Heading
        id={id}
        className={
          level === 2 ? 'text-lg font-semibold text-zinc-900' : 'text-base font-semibold text-zinc-900'
        }
      >
        {title}
      </Heading>
      {siteId ? <RefreshOnCrawlEnd siteId={siteId} /> : null}
      <Suspense key={JSON.stringify(search)} fallback={<ReportSkeleton label={loading} />}>
        {children}
      </Suspense>
    </section>
  );
}
