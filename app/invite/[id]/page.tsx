import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { AcceptInvitation } from '@/components/invite/accept-invitation';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { StandalonePage } from '@/components/shell/standalone-page';
import { ButtonLink } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { Alert } from '@/components/ui/surface';
import { invitationPreview } from '@/lib/dashboard/invitation';
import { currentUser } from '@/lib/dashboard/session';
import { getDb } from '@/lib/db/client';

export const metadata: Metadata = { title: 'Invitation' };

const STATUS_MESSAGES: Record<string, string> = {
  accepted: 'This invitation has already been accepted.',
  rejected: 'This invitation was declined.',
  canceled: 'This invitation was cancelled by the organization.',
  replaced:
    'A newer invitation to the same address replaced this link. Open the link in the most recent invitation email.',
  expired: 'This invitation has expired. Ask for a new one.',
};

export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [invitation, user] = await Promise.all([invitationPreview(await getDb(), id), currentUser()]);
  if (!invitation) notFound();
  const closed = STATUS_MESSAGES[invitation.status];
  const wrongAccount = user !== null && user.email.toLowerCase() !== invitation.email.toLowerCase();

  return (
    <StandalonePage mainClassName="flex flex-1 justify-center px-4 pt-12 pb-24">
      <div className="w-full max-w-sm">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">
          Join {invitation.organizationName}
        </h1>
        <dl className="mt-4 space-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm shadow-xs">
          <Detail term="Organization">{invitation.organizationName}</Detail>
          <Detail term="Role" className="capitalize">
            {invitation.role}
          </Detail>
          <Detail term="Invited by" className="break-all">
            {invitation.inviterEmail}
          </Detail>
          <Detail term="For" className="break-all">
            {invitation.email}
          </Detail>
        </dl>
        <div className="mt-6">
          {closed ? (
            <Alert tone="warning">
              {closed}{' '}
              <a href="/sites" className="font-medium underline">
                Go to the dashboard
              </a>
            </Alert>
          ) : wrongAccount ? (
            <div className="space-y-4">
              <Alert tone="warning">
                This invitation is for {invitation.email}, but you are signed in as {user.email}. Sign out and
                open the link again.
              </Alert>
              <div className="flex gap-3">
                <SignOutButton />
                <ButtonLink href="/sites">Back to dashboard</ButtonLink>
              </div>
            </div>
          ) : (
            <AcceptInvitation
              invitationId={invitation.id}
              organizationId={invitation.organizationId}
              email={invitation.email}
              signedIn={user !== null}
            />
          )}
        </div>
      </div>
    </StandalonePage>
  );
}

function Detail({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-zinc-600">{term}</dt>
      <dd className={cx('font-medium text-zinc-900', className)}>{children}</dd>
    </div>
  );
}
