import { Skeleton } from '@/components/ui/surface';

export default function SiteLoading() {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading site…
      </p>
      <Skeleton className="mb-4 h-28 w-full" />
      <Skeleton className="h-56 w-full" />
    </div>
  );
}
