'use client';

import { type FormEvent, useState } from 'react';
import { failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { useFieldErrorFocus } from '@/components/ui/error-summary';
import { SelectField, SubmitWithStatus, TextField } from '@/components/ui/field';

/** Invites by email; the invitee gets a link to /invite/{id}. Owners may invite owners. */
export function InviteForm({
  canInviteOwner,
  onInvited,
}: {
  canInviteOwner: boolean;
  onInvited: () => void;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'admin' | 'owner'>('member');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [pending, setPending] = useState(false);
  const { form, focusError } = useFieldErrorFocus();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setStatus('');
    setPending(true);
    try {
      await unwrap(authClient.organization.inviteMember({ email: email.trim(), role }));
      setStatus(`Invitation sent to ${email.trim()}.`);
      setEmail('');
      onInvited();
    } catch (e) {
      setError(failureMessage(e, 'Could not send the invitation.'));
      focusError();
    } finally {
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={submit} className="space-y-3">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="Email address"
          name="inviteEmail"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <SelectField
          label="Role"
          name="inviteRole"
          value={role}
          onChange={(e) => setRole(e.target.value as typeof role)}
        >
          <option value="member">Member</option>
          <option value="admin">Admin</option>
          {canInviteOwner ? <option value="owner">Owner</option> : null}
        </SelectField>
      </div>
      <p className="text-xs text-zinc-600">
        Members see only the sites you grant them. Admins and owners manage everything.
      </p>
      <SubmitWithStatus pending={pending} status={status}>
        Send invitation
      </SubmitWithStatus>
    </form>
  );
}
