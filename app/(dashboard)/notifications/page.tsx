import type { Metadata } from 'next';
import Link from 'next/link';
import { OrgNotificationsView } from '@/components/notify/org-notifications-view';
import { buttonClass } from '@/components/ui/button';
import { EmptyState, PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Notifications' };

export default async function NotificationsPage() {
  const { role } = await requireDashboard();
  return (
    <>
      <PageHeader
        title="Notifications"
        // Not "<name>'s sites": the default name already ends in "'s sites" ("dev's sites's sites").
        description="Who hears about this organization's sites: by email and in chat."
        actions={
          isAdminRole(role) ? (
            <Link href="/notifications/deliveries" className={buttonClass('secondary')}>
              Delivery log
            </Link>
          ) : null
        }
      />
      {isAdminRole(role) ? (
        <OrgNotificationsView />
      ) : (
        <EmptyState
          title="Ask an owner or admin"
          description="Notification settings are managed by the organization's owners and admins."
        />
      )}
    </>
  );
}
