import { Loading, Skeleton } from '@/components/ui/surface';

/**
 * The skeleton of a site's report while it loads. Each report's folder has its own loading.tsx
 * (there is none at the site's level): a boundary at the site's level would stream before a page
 * below it, such as Settings for a member or a run that does not exist, could answer 404, and the
 * not-found page would go out with HTTP 200.
 */
export function SiteLoading() {
  return (
    <Loading label="Loading site">
      <Skeleton className="mb-4 h-28 w-full" />
      <Skeleton className="h-56 w-full" />
    </Loading>
  );
}
