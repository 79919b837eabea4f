import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BillingView } from '@/components/billing/billing-view';
import { PageHeader } from '@/components/ui/surface';
import { isAdminRole } from '@/lib/auth/principal';
import { requireDashboard } from '@/lib/dashboard/session';

export const metadata: Metadata = { title: 'Billing' };

export default async function BillingPage() {
  const { role } = await requireDashboard();
  if (!isAdminRole(role)) notFound();
  return (
    <>
      <PageHeader title="Billing" description="Overage settings and this month's projected charges." />
      <BillingView />
    </>
  );
}
