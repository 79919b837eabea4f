import { Loading, Skeleton } from '@/components/ui/surface';

export default function SiteSearchLoading() {
  return (
    <Loading label="Loading search traffic">
      <Skeleton className="mb-4 h-7 w-32" />
      <Skeleton className="mb-6 h-24 w-full" />
      <Skeleton className="h-72 w-full" />
    </Loading>
  );
}
