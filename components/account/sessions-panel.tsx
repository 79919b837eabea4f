'use client';

import { requestJson } from '@/components/api/client';
import type { AccountSession, AccountSessions } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Badge, LoadError, Loading, Section, Skeleton } from '@/components/ui/surface';
import { formatDate, formatDateTime } from '@/lib/format';
import { deviceSummary } from './user-agent';

/**
 * Where the user is signed in: this device first, then the others newest activity first, each of
 * which can be signed out (its session deleted: its cookie and bearer token stop working at once).
 */
export function SessionsPanel() {
  // Sessions by id, never by token (lib/auth/sessions.ts): the current one first, then by activity.
  const sessions = useApi<AccountSessions>('/v1/me/sessions');
  const announcer = useAnnouncer();
  const attempt = useAttempt(announcer);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);
  const error = sessions.error;
  const loaded = sessions.data !== undefined;

  /** A sign-out: `run` deletes the session(s), then the list is read again and `done` said there. */
  const signOut = (run: () => Promise<unknown>, done: string) =>
    attempt('Sign out failed', async () => {
      await run();
      await sessions.mutate();
      return { text: done, focus: true };
    });

  const signOutOne = (session: AccountSession) =>
    signOut(
      () => requestJson(`/v1/me/sessions/${session.id}`, { method: 'DELETE' }),
      `Signed out ${deviceSummary(session.userAgent)}.`,
    );
  const signOutOthers = () =>
    signOut(() => unwrap(authClient.revokeOtherSessions()), 'Signed out of all other sessions.');

  return (
    <Section
      id="sessions"
      title="Where you're signed in"
      description="Browsers and API clients signed in to your account. Last active is recorded about once a day."
      actions={
        loaded && others.length > 0 ? (
          <ConfirmButton
            label="Sign out of all other sessions"
            confirmLabel={`Sign out ${others.length === 1 ? 'the other session' : `${others.length} other sessions`}`}
            onConfirm={signOutOthers}
          />
        ) : null
      }
    >
      <Announcement announcer={announcer} className="mb-3" />
      {error ? (
        <LoadError title="Could not load your sessions" error={error} onRetry={sessions.mutate} />
      ) : !loaded ? (
        <Loading label="Loading sessions">
          <div className="space-y-3">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        </Loading>
      ) : (
        <>
          <ul className="divide-y divide-zinc-200">
            {list.map((session) => {
              const device = deviceSummary(session.userAgent);
              const here = session.current;
              return (
                <li
                  key={session.id}
                  className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
                      {device}
                      {here ? <Badge tone="success">This device</Badge> : null}
                    </p>
                    <p className="mt-0.5 text-xs break-words text-zinc-600">
                      Signed in {formatDateTime(session.createdAt)}
                      {' · '}Last active {formatDate(session.lastActiveAt)}
                      {session.ipAddress ? ` · IP address ${session.ipAddress}` : null}
                    </p>
                  </div>
                  {here ? null : (
                    <div className="shrink-0">
                      <ConfirmButton
                        label={
                          <>
                            Sign out
                            <span className="sr-only">
                              {' '}
                              {device}, signed in {formatDateTime(session.createdAt)}
                            </span>
                          </>
                        }
                        confirmLabel={`Sign out ${device}`}
                        onConfirm={() => signOutOne(session)}
                      />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length === 0 ? (
            <p className="mt-3 text-sm text-zinc-600">You are not signed in anywhere else.</p>
          ) : null}
        </>
      )}
    </Section>
  );
}
