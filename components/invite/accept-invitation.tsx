'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/field';

type Props = { invitationId: string; organizationId: string; email: string; signedIn: boolean };

/**
 * Accepts the invitation and makes its organization the active one. Signed-out visitors first sign
 * in with a code sent to the invited address, then the acceptance continues in place.
 */
export function AcceptInvitation({ invitationId, organizationId, email, signedIn }: Props) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function accept() {
    setPending(true);
    setError(null);
    try {
      await unwrap(authClient.organization.acceptInvitation({ invitationId }));
      await unwrap(authClient.organization.setActive({ organizationId }));
      router.replace('/sites');
      router.refresh();
    } catch (e) {
      setError(failureMessage(e, 'Could not accept the invitation.'));
      setPending(false);
      router.refresh();
    }
  }

  return (
    <div>
      {signedIn ? (
        <Button variant="primary" pending={pending} onClick={accept} className="w-full">
          Accept invitation
        </Button>
      ) : (
        <>
          <p className="mb-4 text-sm text-zinc-700">
            Sign in as {email} to accept. We will email you a code.
          </p>
          <SignInForm initialEmail={email} lockEmail onSignedIn={accept} />
        </>
      )}
      <FormError className="mt-3">{error}</FormError>
    </div>
  );
}
