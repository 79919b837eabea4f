'use client';

import Link from 'next/link';
import { useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { MembersResponse, SiteNotifications } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { Announcement, useAnnouncer, useInPlaceEditor } from '@/components/ui/announcement';
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
  const current = useApi<SiteNotifications>(path);
  const members = useApi<MembersResponse>('/v1/members');
  const editor = useInPlaceEditor();
  const editing = editor.open;
  // Bumped when the override is saved or reverted: the form starts again from what the API holds.
  const [version, setVersion] = useState(0);
  const announcer = useAnnouncer();
  const attempt = useAttempt(announcer);

  const revert = () =>
    attempt('Could not revert', async () => {
      await requestJson(path, { method: 'DELETE' });
      // The focus goes to the line saying so, below.
      editor.closeEditor({ returnFocus: false });
      await current.mutate();
      setVersion((v) => v + 1);
      return { text: "This site now uses the organization's default receivers.", focus: true };
    });

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
        <div ref={editor.openerRef}>
          <Button onClick={editor.openEditor}>Set receivers for this site</Button>
        </div>
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
            <Button size="sm" variant="ghost" onClick={() => editor.closeEditor()}>
              Cancel
            </Button>
          </div>
        )}
        {/* Opening the editor puts the focus on its first receiver, not on Cancel above it. */}
        <div ref={editor.editorRef}>
          <NotificationSettingsForm
            key={version}
            site
            label="This site's receivers"
            settings={current.data.settings}
            members={members.data?.members}
            onSave={async (patch) => {
              const saved = await requestJson<SiteNotifications>(path, { method: 'PATCH', body: patch });
              await current.mutate();
              return saved.settings;
            }}
          />
        </div>
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
