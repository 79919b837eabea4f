import Link from 'next/link';
import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';
import { urlViewHref } from './crawl-hrefs';

/** A crawled URL as a link to its own view (`runId`: in a past crawl's reports). */
export function UrlLink({
  siteId,
  url,
  runId,
  className,
  children,
}: {
  siteId: string;
  url: string;
  runId?: string;
  className?: string;
  /** The link's text; the URL itself by default. */
  children?: ReactNode;
}) {
  return (
    <Link
      href={urlViewHref(siteId, url, runId)}
      className={cx('break-all text-accent-700 hover:underline', className)}
    >
      {children ?? url}
    </Link>
  );
}
