import Link from 'next/link';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/surface';

/**
 * A site tab whose app is off: what the app would show, and the way to turn it on (the settings
 * for an owner or admin, who to ask for everyone else).
 */
export function AppOffState({
  siteId,
  title,
  description,
  canManage,
}: {
  siteId: string;
  title: string;
  description: string;
  canManage: boolean;
}) {
  return (
    <EmptyState
      title={title}
      description={description}
      action={
        canManage ? (
          <Link href={`/sites/${siteId}/settings`} className={buttonClass('primary')}>
            Turn it on in settings
          </Link>
        ) : (
          <p className="text-sm text-zinc-600">An owner or admin can turn it on in the site settings.</p>
        )
      }
    />
  );
}
