import { Loading, Skeleton } from '@/components/ui/surface';

/** What a report's table shows while the server reads it (a new sort, filter or page included). */
export function ReportSkeleton({ label }: { label: string }) {
  return (
    <Loading label={label}>
      <Skeleton className="mb-4 h-16 w-full" />
      <Skeleton className="mb-2 h-10 w-full" />
      <Skeleton className="h-72 w-full" />
    </Loading>
  );
}
