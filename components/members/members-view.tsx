'use client';

import { useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { MembersResponse, MemberView, Site, SitesResponse } from '@/components/api/types';
import { useApi, useRead } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { SiteChecklist } from '@/components/sites/site-checklist';
import { Announcement, focusShown, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CheckboxField, EditorActions } from '@/components/ui/field';
import { ListView } from '@/components/ui/list-view';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState, PlainSection, Section, Skeleton } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';
import { InviteForm } from './invite-form';

type Role = MemberView['role'];

type Invitation = { id: string; email: string; role: string; status: string; expiresAt: Date | string };

export function MembersView({ currentUserId, currentRole }: { currentUserId: string; currentRole: Role }) {
  const members = useApi<MembersResponse>('/v1/members');
  const sites = useApi<SitesResponse>('/v1/sites');
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const attempt = useAttempt(announcer);
  const [editing, setEditing] = useState<string | null>(null);

  /** Closes a member's access editor and gives focus back to the button that opened it. */
  const closeEditor = (memberId: string) => {
    focusShown(`[data-edit-access="${memberId}"]`);
    setEditing(null);
  };

  // Invitations come from better-auth's client; a failed read shows none rather than an error.
  const invitations = useRead('better-auth:invitations', async (): Promise<Invitation[]> => {
    try {
      const list = await unwrap(authClient.organization.listInvitations());
      return (list ?? []).filter((i) => i.status === 'pending');
    } catch {
      return [];
    }
  });
  const loadInvitations = invitations.mutate;

  const isOwner = currentRole === 'owner';
  // Only owners change owners; nobody edits themselves from this table.
  const editable = (m: MemberView) => m.userId !== currentUserId && (isOwner || m.role !== 'owner');

  /** A row action; `removesRow`: the row goes with it, so the focus goes to the line saying so. */
  const act = (run: () => Promise<unknown>, done: string, removesRow = false) =>
    attempt('Failed', async () => {
      await run();
      announce(done, { focus: removesRow });
      await members.mutate();
    });

  return (
    <div className="space-y-8">
      <Announcement announcer={announcer} />
      <PlainSection titleId="members-title" title="Members">
        <ListView
          items={members.data?.members}
          error={members.error}
          failedTitle="Could not load members"
          loadingLabel="Loading members"
          skeleton={<Skeleton className="h-40 w-full" />}
        >
          {(rows) => (
            <ResponsiveTable
              caption="Organization members"
              rows={rows}
              rowKey={(m) => m.id}
              title={{
                key: 'member',
                header: 'Member',
                cell: (m) => (
                  <>
                    <div className="font-medium text-zinc-900">
                      {m.name || m.email}
                      {m.userId === currentUserId ? <span className="ml-1 text-zinc-600">(you)</span> : null}
                    </div>
                    {m.name && m.name !== m.email ? (
                      <div className="text-xs text-zinc-600">{m.email}</div>
                    ) : null}
                  </>
                ),
              }}
              columns={[
                {
                  key: 'role',
                  header: 'Role',
                  cell: (m) =>
                    editable(m) ? (
                      <select
                        aria-label={`Role for ${m.email}`}
                        value={m.role}
                        onChange={(e) =>
                          act(
                            () =>
                              requestJson(`/v1/members/${m.id}`, {
                                method: 'PATCH',
                                body: { role: e.target.value },
                              }),
                            `${m.email} is now ${e.target.value}.`,
                          )
                        }
                        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
                      >
                        <option value="member">Member</option>
                        <option value="admin">Admin</option>
                        {isOwner ? <option value="owner">Owner</option> : null}
                      </select>
                    ) : (
                      <span className="capitalize">{m.role}</span>
                    ),
                },
                {
                  key: 'access',
                  header: 'Site access',
                  cell: (m) =>
                    m.siteIds === null ? (
                      <span className="text-zinc-700">All sites</span>
                    ) : (
                      <span className="text-zinc-700">
                        {m.siteIds.length === 0
                          ? 'No sites'
                          : `${m.siteIds.length} ${m.siteIds.length === 1 ? 'site' : 'sites'}`}
                        {m.canCrawl ? (
                          <span className="ml-2">
                            <Badge tone="info">Can crawl</Badge>
                          </span>
                        ) : null}
                      </span>
                    ),
                },
              ]}
              actions={(m) =>
                editable(m) ? (
                  <>
                    {m.siteIds !== null ? (
                      <Button
                        data-edit-access={m.id}
                        size="sm"
                        variant="ghost"
                        aria-expanded={editing === m.id}
                        onClick={() => setEditing(editing === m.id ? null : m.id)}
                      >
                        Edit access<span className="sr-only"> for {m.email}</span>
                      </Button>
                    ) : null}
                    <ConfirmButton
                      label={
                        <>
                          Remove<span className="sr-only"> {m.email}</span>
                        </>
                      }
                      confirmLabel={
                        <>
                          Confirm removal<span className="sr-only"> of {m.email}</span>
                        </>
                      }
                      onConfirm={() =>
                        act(
                          () => requestJson(`/v1/members/${m.id}`, { method: 'DELETE' }),
                          `${m.email} was removed.`,
                          true,
                        )
                      }
                    />
                  </>
                ) : null
              }
              expanded={(m) =>
                editing === m.id && m.siteIds !== null ? (
                  <AccessEditor
                    member={m}
                    sites={sites.data?.sites}
                    onCancel={() => closeEditor(m.id)}
                    onSaved={async () => {
                      closeEditor(m.id);
                      announce(`Access for ${m.email} saved.`);
                      await members.mutate();
                    }}
                  />
                ) : null
              }
            />
          )}
        </ListView>
      </PlainSection>

      <Section id="invite" title="Invite people" description="They get an email with a link to join.">
        <InviteForm canInviteOwner={isOwner} onInvited={() => void loadInvitations()} />
      </Section>

      <PlainSection titleId="invitations-title" title="Pending invitations">
        {!invitations.data ? (
          <Skeleton className="h-16 w-full" />
        ) : invitations.data.length === 0 ? (
          <EmptyState
            title="No pending invitations"
            description="Invitations you send appear here until accepted."
          />
        ) : (
          <ResponsiveTable
            caption="Pending invitations"
            rows={invitations.data}
            rowKey={(inv) => inv.id}
            title={{ key: 'email', header: 'Email', cell: (inv) => inv.email }}
            columns={[
              {
                key: 'role',
                header: 'Role',
                className: 'capitalize',
                cell: (inv) => <span className="capitalize">{inv.role}</span>,
              },
              {
                key: 'expires',
                header: 'Expires',
                cell: (inv) => formatDateTime(new Date(inv.expiresAt).getTime()),
              },
            ]}
            actions={(inv) => (
              <Button
                size="sm"
                variant="ghost"
                onClick={async () => {
                  await attempt('Failed', async () => {
                    await unwrap(authClient.organization.cancelInvitation({ invitationId: inv.id }));
                    return { text: `Invitation to ${inv.email} cancelled.`, focus: true };
                  });
                  await loadInvitations();
                }}
              >
                Cancel<span className="sr-only"> invitation to {inv.email}</span>
              </Button>
            )}
          />
        )}
      </PlainSection>
    </div>
  );
}

function AccessEditor({
  member,
  sites,
  onCancel,
  onSaved,
}: {
  member: MemberView;
  sites: Site[] | undefined;
  onCancel: () => void;
  onSaved: () => Promise<void>;
}) {
  const [selected, setSelected] = useState(new Set(member.siteIds ?? []));
  const [canCrawl, setCanCrawl] = useState(member.canCrawl);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save() {
    setPending(true);
    setError(null);
    try {
      await requestJson(`/v1/members/${member.id}/access`, {
        method: 'PATCH',
        body: { siteIds: [...selected], canCrawl },
      });
      await onSaved();
    } catch (e) {
      setError(failureMessage(e, 'Could not save access.'));
      setPending(false);
    }
  }

  return (
    <div className="space-y-4 py-2">
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">Sites {member.email} can see</legend>
        <SiteChecklist
          sites={sites}
          selected={selected}
          onChange={setSelected}
          emptyText="The organization has no sites yet."
        />
      </fieldset>
      <CheckboxField
        label="Can start crawls"
        hint="Lets this member press Crawl now on the sites above."
        checked={canCrawl}
        onChange={(e) => setCanCrawl(e.target.checked)}
      />
      <EditorActions
        error={error}
        pending={pending}
        saveLabel="Save access"
        onSave={save}
        onCancel={onCancel}
      />
    </div>
  );
}
