'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { SubmitWithStatus, TextField } from '@/components/ui/field';
import { Section } from '@/components/ui/surface';
import type { OrganizationView } from '@/lib/api/schemas/organization';
import { LOGO_MAX_BYTES, LOGO_TYPES, ORGANIZATION_NAME_MAX } from '@/lib/orgs/limits';

type Answer = { organization: OrganizationView };

/**
 * The organization page's two forms, for owners and admins: the name (PATCH /v1/organization) and
 * the logo (PUT/DELETE /v1/organization/logo). The server checks everything; the browser only turns
 * the chosen file into base64 and says at once when it is too big or not a PNG or JPEG, so a large
 * file is not sent to be refused. After each action focus moves to its message, so a screen reader
 * hears the outcome and the keyboard goes on from there (the remove button is gone after removing).
 */
export function OrganizationSettings({ organization }: { organization: OrganizationView }) {
  const router = useRouter();
  return (
    <div className="space-y-6">
      <NameForm organization={organization} onSaved={() => router.refresh()} />
      <LogoForm organization={organization} onSaved={() => router.refresh()} />
    </div>
  );
}

function NameForm({ organization, onSaved }: { organization: OrganizationView; onSaved: () => void }) {
  const [value, setValue] = useState(organization.name);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLInputElement>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setStatus('');
    try {
      const { organization: saved } = await requestJson<Answer>('/v1/organization', {
        method: 'PATCH',
        body: { name: value },
      });
      setValue(saved.name);
      setStatus(`Renamed to ${saved.name}.`);
      onSaved();
    } catch (e) {
      setError(failureMessage(e, 'Could not rename the organization. Try again.'));
      input.current?.focus();
    } finally {
      setPending(false);
    }
  }

  return (
    <Section
      id="organization-name"
      title="Name"
      description="Shown in the dashboard, on the cover and footer of the monthly reports, and as the sender line of the mails (cut to 60 characters there)."
    >
      <form onSubmit={save} noValidate className="max-w-md space-y-4">
        <TextField
          ref={input}
          label="Organization name"
          name="name"
          autoComplete="organization"
          value={value}
          maxLength={ORGANIZATION_NAME_MAX}
          required
          onChange={(e) => setValue(e.target.value)}
          hint={`1 to ${ORGANIZATION_NAME_MAX} characters, on one line.`}
          error={error}
        />
        <SubmitWithStatus pending={pending} status={status}>
          Save name
        </SubmitWithStatus>
      </form>
    </Section>
  );
}

/** The file as base64, without the `data:...;base64,` prefix FileReader puts before it. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function LogoForm({ organization, onSaved }: { organization: OrganizationView; onSaved: () => void }) {
  const [logo, setLogo] = useState(organization.logo);
  const [pending, setPending] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const message = useRef<HTMLParagraphElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const maxKb = LOGO_MAX_BYTES / 1024;

  function done(next: OrganizationView['logo'], text: string) {
    setLogo(next);
    setStatus(text);
    onSaved();
    // After the render that shows the message.
    requestAnimationFrame(() => message.current?.focus());
  }

  async function upload(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setStatus('');
    const file = fileInput.current?.files?.[0];
    if (!file) return fail('Choose a PNG or JPEG file first.');
    if (!(LOGO_TYPES as readonly string[]).includes(file.type))
      return fail(`${file.name} is not a PNG or JPEG image (SVG is not accepted).`);
    if (file.size > LOGO_MAX_BYTES)
      return fail(`${file.name} is ${Math.ceil(file.size / 1024)} KB: a logo may be at most ${maxKb} KB.`);
    setPending('upload');
    try {
      const { organization: saved } = await requestJson<Answer>('/v1/organization/logo', {
        method: 'PUT',
        body: { contentType: file.type, data: await readBase64(file) },
      });
      if (fileInput.current) fileInput.current.value = '';
      done(saved.logo, 'Logo saved: the next reports carry it.');
    } catch (e) {
      fail(failureMessage(e, 'Could not save the logo. Try again.'));
    } finally {
      setPending(null);
    }
  }

  async function remove() {
    setError(null);
    setStatus('');
    setPending('remove');
    try {
      const { organization: saved } = await requestJson<Answer>('/v1/organization/logo', {
        method: 'DELETE',
      });
      done(saved.logo, 'Logo removed: reports show the name alone.');
    } catch (e) {
      fail(failureMessage(e, 'Could not remove the logo. Try again.'));
    } finally {
      setPending(null);
    }
  }

  function fail(text: string) {
    setError(text);
    fileInput.current?.focus();
  }

  return (
    <Section
      id="organization-logo"
      title="Logo"
      description={`Leads the cover of the monthly reports. PNG or JPEG, at most ${maxKb} KB; about 160 by 40 points in print.`}
    >
      <div className="space-y-4">
        <div className="flex min-h-16 flex-wrap items-center gap-4">
          {logo ? (
            <>
              {/* biome-ignore lint/performance/noImgElement: a data: URL from the API; nothing for next/image to optimize */}
              <img
                src={logo.dataUrl}
                alt={`Current logo of ${organization.name}`}
                className="max-h-16 max-w-60 rounded border border-zinc-200 bg-white p-1"
              />
              <span className="text-sm text-zinc-600">
                {logo.contentType === 'image/png' ? 'PNG' : 'JPEG'},{' '}
                {Math.max(1, Math.round(logo.size / 1024))} KB
              </span>
              <Button variant="secondary" pending={pending === 'remove'} onClick={remove}>
                Remove logo
              </Button>
            </>
          ) : (
            <p className="text-sm text-zinc-700">
              No logo yet: reports show the organization&apos;s name alone.
            </p>
          )}
        </div>
        <p ref={message} tabIndex={-1} role="status" className="text-sm text-green-800 focus:outline-none">
          {status}
        </p>
        <form onSubmit={upload} noValidate className="max-w-md space-y-4">
          <TextField
            ref={fileInput}
            label={logo ? 'Replace with' : 'Logo file'}
            name="logo"
            type="file"
            accept={LOGO_TYPES.join(',')}
            hint={`PNG or JPEG, at most ${maxKb} KB.`}
            error={error}
          />
          <Button type="submit" variant="primary" pending={pending === 'upload'}>
            Upload logo
          </Button>
        </form>
      </div>
    </Section>
  );
}
