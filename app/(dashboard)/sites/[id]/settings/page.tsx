import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SiteNotificationsSection } from '@/components/notify/site-notifications';
import { SiteSettingsForm } from '@/components/sites/site-settings-form';
import { isAdminRole, isPrivileged } from '@/lib/auth/principal';
import { fieldDataConfigured } from '@/lib/dashboard/fielddata';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage, siteResource } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Settings · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { principal } = await requireDashboard();
  // Members without management rights have no settings page, not a form that fails on save.
  if (!isPrivileged(principal)) notFound();
  const site = await siteForPage((await params).id);
  return (
    <SiteSettingsForm site={siteResource(site)} fieldDataConfigured={fieldDataConfigured()}>
      {isAdminRole(principal.role) ? <SiteNotificationsSection siteId={site.id} /> : null}
    </SiteSettingsForm>
  );
}
