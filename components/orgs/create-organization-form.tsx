'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { ApiClientError, failureMessage } from '@/components/api/client';
import { authClient, unwrap } from '@/components/auth/auth-client';
import { Button } from '@/components/ui/button';
import { useFieldErrorFocus } from '@/components/ui/error-summary';
import { TextField } from '@/components/ui/field';

/** better-auth wants a unique slug; a short random suffix keeps two "Acme"s apart. */
function slugFor(name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'org';
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}

export function CreateOrganizationForm() {
  const router = useRouter();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ text: string; limit: boolean } | null>(null);
  const { form, focusError } = useFieldErrorFocus();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    try {
      const org = await unwrap(authClient.organization.create({ name: name.trim(), slug: slugFor(name) }));
      if (org) await unwrap(authClient.organization.setActive({ organizationId: org.id }));
      // The list says so where the focus lands: this form is gone with the page.
      router.push('/sites?created=1');
      router.refresh();
    } catch (e) {
      const limit = e instanceof ApiClientError && e.status === 403;
      setError({
        text: limit
          ? 'You have reached the maximum number of organizations for your account.'
          : failureMessage(e, 'Could not create the organization.'),
        limit,
      });
      focusError();
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={submit} className="space-y-4">
      <TextField
        label="Organization name"
        name="name"
        required
        maxLength={100}
        autoComplete="organization"
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint="Sites, members, keys and billing belong to an organization."
        error={error && !error.limit ? error.text : null}
      />
      {error?.limit ? (
        <div
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p className="font-semibold">{error.text}</p>
          <p className="mt-1">
            <Link href="/organizations/limit-request" className="font-medium underline">
              Request a higher organization limit
            </Link>
          </p>
        </div>
      ) : null}
      <Button type="submit" variant="primary" pending={pending}>
        Create organization
      </Button>
    </form>
  );
}
