import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

/**
 * A missing page inside the dashboard (an unknown site, or one outside the caller's access), shown
 * within the dashboard's own header and navigation. It answers 404: nothing above the site layout's
 * notFound() streams (no loading boundary in this group's root), so the status is still unsent.
 */
export default function DashboardNotFound() {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-6 py-10 text-center shadow-xs">
      <p className="text-sm font-semibold text-accent-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mx-auto mt-2 max-w-md text-sm text-zinc-600">
        There is nothing here, or it belongs to another organization: switch organization above if you have
        access through another one.
      </p>
      <div className="mt-6 flex justify-center">
        <ButtonLink href="/sites" variant="primary">
          Go to sites
        </ButtonLink>
      </div>
    </div>
  );
}
