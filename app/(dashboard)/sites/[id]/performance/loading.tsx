import { Loading, Skeleton } from '@/components/ui/surface';

/** The tab's shape while its field data loads: verdict, four metric cards, the trend charts. */
export default function PerformanceLoading() {
  return (
    <Loading label="Loading field data">
      <Skeleton className="mb-4 h-7 w-40" />
      <Skeleton className="mb-6 h-12 w-full" />
      <Skeleton className="mb-6 h-24 w-full" />
      <div className="mb-6 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {['lcp', 'inp', 'cls', 'ttfb'].map((m) => (
          <Skeleton key={m} className="h-36" />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-64" />
        <Skeleton className="h-64" />
      </div>
    </Loading>
  );
}
