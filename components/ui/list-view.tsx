import type { ReactNode } from 'react';
import { LoadError, Loading, Skeleton } from './surface';

/**
 * A list read from the API, in the states every list page shows: its failure (with a retry where
 * one can help), a skeleton while it loads (announced as loading), its empty state, else the list.
 */
export function ListView<T>({
  items,
  error,
  onRetry,
  failedTitle,
  loadingLabel,
  skeleton = <Skeleton className="h-32 w-full" />,
  empty,
  children,
}: {
  /** The rows; undefined while they load. */
  items: T[] | undefined;
  error?: { message: string };
  onRetry?: () => unknown;
  /** "Could not load keys". */
  failedTitle: string;
  /** "Loading keys". */
  loadingLabel: string;
  skeleton?: ReactNode;
  /** What an empty list shows; without it an empty list renders as a list. */
  empty?: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (error) return <LoadError title={failedTitle} error={error} onRetry={onRetry} />;
  if (!items) return <Loading label={loadingLabel}>{skeleton}</Loading>;
  if (items.length === 0 && empty !== undefined) return empty;
  return children(items);
}
