import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Logo } from '@/components/brand';
import { AcceptInvitation } from '@/components/invite/accept-invitation';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { ButtonLink } from '@/components/ui/button';
import { Alert } from '@/components/ui/surface';
import { invitationPreview } from '@/lib/dashboard/invitation';
import { currentUser } from '@/lib/dashboard/session';
import { getDb } from '@/lib/db/client';

export const metadata: Metadata = { title: 'Invitation' };

const STATUS_MESSAGES: Record<string, string> = {
  accepted: 'This invitation has already been accepted.',
  rejected: 'This invitation was declined.',
  canceled: 'This invitation was cancelled by the organization.',
  expired: 'This invitation has expired. Ask for a new one.',
};

export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [invitation, user] = await Promise.all([invitationPreview(await getDb(), id), currentUser()]);
  if (!invitation) notFound();
  const closed = STATUS_MESSAGES[invitation.status];
  const wrongAccount = user !== null && user.email.toLowerCase() !== invitation.email.toLowerCase();

  return (
    <div className="flex min-h-screen flex-col">
      <header className="px-6 py-5">
        <Logo />
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 justify-center px-4 pt-12 pb-24 outline-none">
        <div className="w-full max-w-sm">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">
            Join {invitation.organizationName}
          </h1>
          <dl className="mt-4 space-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm shadow-xs">
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">Organization</dt>
              <dd className="font-medium text-zinc-900">{invitation.organizationName}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">Role</dt>
              <dd className="font-medium text-zinc-900 capitalize">{invitation.role}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">Invited by</dt>
              <dd className="font-medium break-all text-zinc-900">{invitation.inviterEmail}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">For</dt>
              <dd className="font-medium break-all text-zinc-900">{invitation.email}</dd>
            </div>
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
                  This invitation is for {invitation.email}, but you are signed in as {user.email}. Sign out
                  and open the link again.
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
      </main>
    </div>
  );
}
