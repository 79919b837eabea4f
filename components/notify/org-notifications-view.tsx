'use client';

import Link from 'next/link';
import { useState } from 'react';
import { requestJson } from '@/components/api/client';
import type {
  MembersResponse,
  NotificationSettings,
  OrgNotifications,
  SigningSecret,
  SitesResponse,
} from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';
import { AlertOfferBanner } from './alert-offer';
import { MailAddressesSection } from './mail-addresses';
import { ReceiverHealthSection } from './receiver-health';
import { NotificationSettingsForm } from './settings-form';

/**
 * The organization's notification defaults, the mail consent of the addresses they name, the sites
 * with their own, the webhooks' health and the signing secret.
 */
export function OrgNotificationsView() {
  const settings = useApi<OrgNotifications>('/v1/notifications');
  const members = useApi<MembersResponse>('/v1/members');
  const sites = useApi<SitesResponse>('/v1/sites');
  // The addresses read again after a save or an action on one, without replacing the settings: the
  // form is keyed on them and would start afresh, losing its "Saved." (the next visit reads both).
  const reloadAddresses = async () => {
    const { addresses } = await requestJson<OrgNotifications>('/v1/notifications');
    await settings.mutate((current) => current && { ...current, addresses }, { revalidate: false });
  };

  if (settings.error) {
    return (
      <LoadError
        title="Could not load the notification settings"
        error={settings.error}
        onRetry={settings.mutate}
      />
    );
  }
  if (!settings.data) {
    return (
      <Loading label="Loading notification settings">
        <Skeleton className="mb-4 h-28 w-full" />
        <Skeleton className="h-96 w-full" />
      </Loading>
    );
  }
  const data = settings.data;
  const hostname = (id: string) => sites.data?.sites.find((s) => s.id === id)?.hostname ?? 'a site';

  return (
    <div className="space-y-8">
      <AlertOfferBanner onAccepted={() => void settings.mutate()} />
      <Section
        id="defaults"
        title="Default receivers"
        description="Every site notifies these, unless it has its own settings without the defaults."
      >
        <NotificationSettingsForm
          // Remounted when the defaults change outside the form ("Alert me" above), so it shows them.
          key={JSON.stringify(data.settings)}
          label="Default receivers"
          settings={data.settings}
          members={members.data?.members}
          onSave={async (body) => {
            const saved = await requestJson<{ settings: NotificationSettings }>('/v1/notifications', {
              method: 'PATCH',
              body,
            });
            // Saving an outside address mails it a confirmation: the addresses below show it pending.
            void reloadAddresses().catch(() => undefined);
            return saved.settings;
          }}
        />
      </Section>

      <MailAddressesSection addresses={data.addresses} onChanged={reloadAddresses} />

      <Section id="overrides" title="Sites with their own settings">
        {data.overriddenSiteIds.length === 0 ? (
          <p className="text-sm text-zinc-600">
            None: every site uses the defaults. A site's own settings are under its Settings tab.
          </p>
        ) : (
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {data.overriddenSiteIds.map((id) => (
              <li key={id}>
                <Link href={`/sites/${id}/settings#notifications`} className="text-accent-700 underline">
                  {hostname(id)}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <ReceiverHealthSection />

      <SigningSecretSection
        secret={{
          signingSecret: data.signingSecret,
          previousSigningSecretExpiresAt: data.previousSigningSecretExpiresAt,
        }}
      />
    </div>
  );
}

/** The http webhooks' signing secret: hidden until revealed, copy, rotate after a confirmation. */
function SigningSecretSection({ secret: initial }: { secret: SigningSecret }) {
  const [secret, setSecret] = useState(initial);
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);
  const announcer = useAnnouncer();
  const attempt = useAttempt(announcer);

  const rotate = () =>
    attempt('Rotation failed', async () => {
      const next = await requestJson<SigningSecret>('/v1/notifications/signing-secret', { method: 'POST' });
      setSecret(next);
      setShown(true);
      setCopied(false);
      return 'Signing secret rotated. The previous one still signs for 24 hours.';
    });

  return (
    <Section
      id="signing-secret"
      title="Webhook signing secret"
      description="HTTP webhooks are signed with it (Standard Webhooks): receivers verify the webhook-signature header."
    >
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="signing-secret-value" className="block text-sm font-medium text-zinc-800">
            Signing secret
          </label>
          <input
            id="signing-secret-value"
            readOnly
            type={shown ? 'text' : 'password'}
            value={secret.signingSecret}
            onFocus={(e) => e.target.select()}
            className="mt-1 block w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-sm text-zinc-900"
          />
        </div>
        <Button aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide' : 'Reveal'}
        </Button>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(secret.signingSecret);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <ConfirmButton label="Rotate" confirmLabel="Rotate the secret now" onConfirm={rotate} />
      </div>
      <p role="status" className="sr-only">
        {copied ? 'Signing secret copied to the clipboard.' : ''}
      </p>
      <p className="mt-3 text-xs text-zinc-600">
        Rotating makes a new secret. The old one keeps signing alongside it for 24 hours, so receivers can
        switch without missing a message.
        {secret.previousSigningSecretExpiresAt
          ? ` The previous secret signs until ${formatDateTime(secret.previousSigningSecretExpiresAt)}.`
          : ''}
      </p>
      <Announcement announcer={announcer} className="mt-3" />
    </Section>
  );
}
