import Link from 'next/link';
import { Alert, EmptyState } from '@/components/ui/surface';

/**
 * Why a report view has nothing to show, in the service's words: nothing yet (no crawl, the run's
 * URLs no longer stored), or a link that no longer fits the data (a cursor of an earlier crawl),
 * with the way back to the first page.
 */
export function ViewProblem({
  reason,
  message,
  title,
  hint,
  firstPageHref,
}: {
  reason: 'missing' | 'invalid';
  message: string;
  title: string;
  /** What to do about it, after the service's message. */
  hint?: string;
  firstPageHref: string;
}) {
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  if (reason === 'invalid') {
    return (
      <Alert tone="warning" title="This link no longer fits the report">
        <p>{sentence}</p>
        <p className="mt-2">
          <Link href={firstPageHref} className="font-medium underline">
            Go to the first page
          </Link>
        </p>
      </Alert>
    );
  }
  return <EmptyState title={title} description={hint ? `${sentence} ${hint}` : sentence} />;
}
