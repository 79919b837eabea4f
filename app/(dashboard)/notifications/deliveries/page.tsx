import type { Metadata } from 'next';
import Link from 'next/link';
import { DeliveryLog } from '@/components/notify/delivery-log';
import { buttonClass } from '@/components/ui/button';
import { queryState } from '@/components/ui/query-href';
import { EmptyState, PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Delivery log · Notifications' };

export default async function DeliveriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { role } = await requireDashboard();
  const query = queryState(await searchParams);
  return (
    <>
      <PageHeader
        title="Delivery log"
        description="Each notification to each receiver, newest first: when, the outcome, and retries."
        actions={
          <Link href="/notifications" className={buttonClass('secondary')}>
            Notification settings
          </Link>
        }
      />
      {isAdminRole(role) ? (
        <DeliveryLog query={query} />
      ) : (
        <EmptyState
          title="Ask an owner or admin"
          description="The delivery log is shown to the organization's owners and admins."
        />
      )}
    </>
  );
}
