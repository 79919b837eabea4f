'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { useFieldErrorFocus } from '@/components/ui/error-summary';
import { SubmitWithStatus, TextField } from '@/components/ui/field';
import { NAME_MAX_LENGTH } from '@/lib/auth/display-name';

/**
 * The signed-in user's email (read-only: it is how they sign in, by emailed code) and display name.
 * Saving refreshes the server render, so the header shows the new name at once.
 */
export function ProfileForm({ email, name }: { email: string; name: string }) {
  const router = useRouter();
  const [value, setValue] = useState(name);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const { form, focusError } = useFieldErrorFocus();

  async function save(event: FormEvent) {
    event.preventDefault();
    const next = value.trim();
    setValue(next);
    setPending(true);
    setError(null);
    setStatus('');
    try {
      await unwrap(authClient.updateUser({ name: next }));
      setStatus(next ? 'Name saved.' : 'Name removed: your email address shows instead.');
      router.refresh();
    } catch (e) {
      setError(failureMessage(e, 'Could not save your name. Try again.'));
      focusError();
    } finally {
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={save} noValidate className="max-w-md space-y-4">
      <TextField
        label="Email address"
        type="email"
        value={email}
        readOnly
        hint="You sign in with a code sent to this address. It cannot be changed."
        className="[&_input]:bg-zinc-50"
      />
      <TextField
        label="Display name"
        name="name"
        autoComplete="name"
        value={value}
        maxLength={NAME_MAX_LENGTH}
        onChange={(e) => setValue(e.target.value)}
        hint="Shown in the dashboard header and in your organizations' member lists. Leave it empty to show your email address."
        error={error}
      />
      <SubmitWithStatus pending={pending} status={status}>
        Save name
      </SubmitWithStatus>
    </form>
  );
}
