'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { useSiteStatus } from './use-site-status';

/**
 * Keeps a server-rendered report current while it stays open: it follows the site's status (any
 * crawl, however it started, see useSiteStatus), says so while a crawl runs, and re-renders the
 * page when the crawl ends so the new results show without a reload.
 */
export function RefreshOnCrawlEnd({ siteId }: { siteId: string }) {
  const router = useRouter();
  const { crawling, data } = useSiteStatus(siteId);
  const was = useRef<boolean | null>(null);
  useEffect(() => {
    if (data === undefined) return;
    if (was.current === true && !crawling) router.refresh();
    was.current = crawling;
  }, [crawling, data, router]);
  return (
    <p role="status" className="text-sm text-accent-800">
      {crawling ? 'A crawl of this site is running: these results update when it ends.' : ''}
    </p>
  );
}
