'use client';

import { Fragment, useCallback, useEffect, useState } from 'react';
import { failureAnnouncement, failureMessage, requestJson, useResource } from '@/components/api/client';
import type { MembersResponse, MemberView, Site, SitesResponse } from '@/components/api/types';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { SiteChecklist } from '@/components/sites/site-checklist';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CheckboxField, FormError } from '@/components/ui/field';
import { formatDateTime } from '@/components/ui/format';
import {
  Badge,
  EmptyState,
  LoadError,
  Loading,
  PlainSection,
  Section,
  Skeleton,
} from '@/components/ui/surface';
import { ActionsTh, Table, Td, Th } from '@/components/ui/table';
import { InviteForm } from './invite-form';

type Role = MemberView['role'];
type Invitation = { id: string; email: string; role: string; status: string; expiresAt: Date | string };

export function MembersView({ currentUserId, currentRole }: { currentUserId: string; currentRole: Role }) {
  const members = useResource<MembersResponse>('/v1/members');
  const sites = useResource<SitesResponse>('/v1/sites');
  const [invitations, setInvitations] = useState<Invitation[]>();
  const [announcement, setAnnouncement] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  const loadInvitations = useCallback(async () => {
    try {
      const list = await unwrap(authClient.organization.listInvitations());
      setInvitations((list ?? []).filter((i) => i.status === 'pending'));
    } catch {
      setInvitations([]);
    }
  }, []);
  useEffect(() => {
    void loadInvitations();
  }, [loadInvitations]);

  const isOwner = currentRole === 'owner';

  async function act(run: () => Promise<unknown>, done: string) {
    try {
      await run();
      setAnnouncement(done);
      await members.reload();
    } catch (e) {
      setAnnouncement(failureAnnouncement('Failed', e));
    }
  }

  return (
    <div className="space-y-8">
      <p role="status" aria-live="polite" className="text-sm text-zinc-700 empty:hidden">
        {announcement}
      </p>
      <PlainSection titleId="members-title" title="Members">
        {members.error ? (
          <LoadError title="Could not load members" error={members.error} />
        ) : !members.data ? (
          <Loading label="Loading members">
            <Skeleton className="h-40 w-full" />
          </Loading>
        ) : (
          <Table caption="Organization members">
            <thead>
              <tr>
                <Th>Member</Th>
                <Th>Role</Th>
                <Th>Site access</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {members.data.members.map((m) => {
                const self = m.userId === currentUserId;
                // Only owners change owners; nobody edits themselves from this table.
                const editable = !self && (isOwner || m.role !== 'owner');
                return (
                  <Fragment key={m.id}>
                    <tr>
                      <Td>
                        <div className="font-medium text-zinc-900">
                          {m.name || m.email}
                          {self ? <span className="ml-1 text-zinc-600">(you)</span> : null}
                        </div>
                        {m.name && m.name !== m.email ? (
                          <div className="text-xs text-zinc-600">{m.email}</div>
                        ) : null}
                      </Td>
                      <Td>
                        {editable ? (
                          <>
                            <label htmlFor={`role-${m.id}`} className="sr-only">
                              Role for {m.email}
                            </label>
                            <select
                              id={`role-${m.id}`}
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
                          </>
                        ) : (
                          <span className="capitalize">{m.role}</span>
                        )}
                      </Td>
                      <Td>
                        {m.siteIds === null ? (
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
                        )}
                      </Td>
                      <Td className="text-right whitespace-nowrap">
                        {m.siteIds !== null && editable ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-expanded={editing === m.id}
                            aria-controls={`access-${m.id}`}
                            onClick={() => setEditing(editing === m.id ? null : m.id)}
                          >
                            Edit access<span className="sr-only"> for {m.email}</span>
                          </Button>
                        ) : null}
                        {editable ? (
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
                              )
                            }
                          />
                        ) : null}
                      </Td>
                    </tr>
                    {editing === m.id && m.siteIds !== null ? (
                      <tr id={`access-${m.id}`}>
                        <Td colSpan={4} className="bg-zinc-50">
                          <AccessEditor
                            member={m}
                            sites={sites.data?.sites}
                            onCancel={() => setEditing(null)}
                            onSaved={async () => {
                              setEditing(null);
                              setAnnouncement(`Access for ${m.email} saved.`);
                              await members.reload();
                            }}
                          />
                        </Td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </Table>
        )}
      </PlainSection>

      <Section id="invite" title="Invite people" description="They get an email with a link to join.">
        <InviteForm canInviteOwner={isOwner} onInvited={() => void loadInvitations()} />
      </Section>

      <PlainSection titleId="invitations-title" title="Pending invitations">
        {!invitations ? (
          <Skeleton className="h-16 w-full" />
        ) : invitations.length === 0 ? (
          <EmptyState
            title="No pending invitations"
            description="Invitations you send appear here until accepted."
          />
        ) : (
          <Table caption="Pending invitations">
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Expires</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {invitations.map((inv) => (
                <tr key={inv.id}>
                  <Td>{inv.email}</Td>
                  <Td className="capitalize">{inv.role}</Td>
                  <Td>{formatDateTime(new Date(inv.expiresAt).getTime())}</Td>
                  <Td className="text-right">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={async () => {
                        try {
                          await unwrap(authClient.organization.cancelInvitation({ invitationId: inv.id }));
                          setAnnouncement(`Invitation to ${inv.email} cancelled.`);
                        } catch (e) {
                          setAnnouncement(failureAnnouncement('Failed', e));
                        }
                        await loadInvitations();
                      }}
                    >
                      Cancel<span className="sr-only"> invitation to {inv.email}</span>
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
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
      <FormError>{error}</FormError>
      <div className="flex gap-2">
        <Button variant="primary" size="sm" pending={pending} onClick={save}>
          Save access
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
