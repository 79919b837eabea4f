'use client';

import Link from 'next/link';
import { useState } from 'react';
import { failureAnnouncement, requestJson, useResource } from '@/components/api/client';
import type { MembersResponse, SiteNotifications } from '@/components/api/types';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { NotificationSettingsForm } from './settings-form';

/**
 * A site's own notification receivers under its settings: following the org defaults until the
 * person starts an override; "Use the organization's defaults" deletes it.
 */
export function SiteNotificationsSection({ siteId }: { siteId: string }) {
  const path = `/v1/sites/${siteId}/notifications`;
  const current = useResource<SiteNotifications>(path);
  const members = useResource<MembersResponse>('/v1/members');
  const [editing, setEditing] = useState(false);
  // Bumped when the override is saved or reverted: the form starts again from what the API holds.
  const [version, setVersion] = useState(0);
  const announcer = useAnnouncer();

  async function revert() {
    try {
      await requestJson(path, { method: 'DELETE' });
      setEditing(false);
      await current.reload();
      setVersion((v) => v + 1);
      announcer.announce("This site now uses the organization's default receivers.", { focus: true });
    } catch (e) {
      announcer.announce(failureAnnouncement('Could not revert', e));
    }
  }

  let body: React.ReactNode;
  if (current.error) {
    body = <LoadError title="Could not load this site's notifications" error={current.error} />;
  } else if (!current.data) {
    body = (
      <Loading label="Loading notification settings">
        <Skeleton className="h-40 w-full" />
      </Loading>
    );
  } else if (!current.data.overridden && !editing) {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-zinc-700">
          This site notifies the organization's{' '}
          <Link href="/notifications" className="text-accent-700 underline">
            default receivers
          </Link>
          .
        </p>
        <Button onClick={() => setEditing(true)}>Set receivers for this site</Button>
      </div>
    );
  } else {
    body = (
      <div className="space-y-5">
        {current.data.overridden ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-700">
            <span>This site has its own receivers.</span>
            <ConfirmButton
              label="Use the organization's defaults"
              confirmLabel="Remove this site's own receivers"
              onConfirm={revert}
            />
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-700">
            <span>Not saved yet: the site uses the defaults until you save.</span>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        )}
        <NotificationSettingsForm
          key={version}
          site
          label="This site's receivers"
          settings={current.data.settings}
          members={members.data?.members}
          onSave={async (patch) => {
            const saved = await requestJson<SiteNotifications>(path, { method: 'PATCH', body: patch });
            await current.reload();
            return saved.settings;
          }}
        />
      </div>
    );
  }

  return (
    <Section
      id="notifications"
      title="Notifications"
      description="Who hears about this site: the organization's defaults, or receivers of its own."
    >
      <Announcement announcer={announcer} className="mb-3" />
      {body}
    </Section>
  );
}
