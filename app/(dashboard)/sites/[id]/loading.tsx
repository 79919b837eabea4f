import { Loading, Skeleton } from '@/components/ui/surface';

export default function SiteLoading() {
  return (
    <Loading label="Loading site">
      <Skeleton className="mb-4 h-28 w-full" />
      <Skeleton className="h-56 w-full" />
    </Loading>
  );
}
