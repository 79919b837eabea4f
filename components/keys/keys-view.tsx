'use client';

import { type FormEvent, useEffect, useRef, useState } from 'react';
import { requestJson } from '@/components/api/client';
import { type FormErrors, formErrorsOf } from '@/components/api/field-errors';
import type { ApiKeyView, KeysResponse, KeyWithSecret, Site, SitesResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { SiteChecklist } from '@/components/sites/site-checklist';
import { Announcement, focusShown, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CheckboxField, FormError, SelectField, TextField } from '@/components/ui/field';
import { ListView } from '@/components/ui/list-view';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState, PlainSection, Section } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';

type Revealed = KeyWithSecret & { action: 'created' | 'rerolled' };

export function KeysView() {
  const keys = useApi<KeysResponse>('/v1/keys');
  const sites = useApi<SitesResponse>('/v1/sites');
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const attempt = useAttempt(announcer);

  const siteName = (id: string) => sites.data?.sites.find((s) => s.id === id)?.hostname ?? 'deleted site';

  const reroll = (key: ApiKeyView) =>
    attempt('Re-roll failed', async () => {
      const result = await requestJson<KeyWithSecret>(`/v1/keys/${key.id}/reroll`, {
        method: 'POST',
      });
      // The list first: the panel's Done gives the focus to this key's row, which must be there.
      await keys.mutate();
      setRevealed({ ...result, action: 'rerolled' });
    });

  const revoke = (key: ApiKeyView) =>
    attempt('Revoke failed', async () => {
      await requestJson(`/v1/keys/${key.id}/revoke`, { method: 'POST' });
      if (revealed?.key.id === key.id) setRevealed(null);
      // The row and its buttons go: the focus goes to the line saying so.
      announce(`Key "${key.name}" revoked.`, { focus: true });
      await keys.mutate();
    });

  return (
    <div className="space-y-8">
      {revealed ? (
        <SecretPanel
          revealed={revealed}
          onDismiss={() => {
            // The panel goes: focus returns to the key it was about, where its actions are.
            focusShown(`[data-reroll="${revealed.key.id}"]`);
            setRevealed(null);
          }}
        />
      ) : null}
      <Announcement announcer={announcer} />

      <PlainSection titleId="keys-title" title="Active keys">
        <ListView
          items={keys.data?.keys}
          error={keys.error}
          failedTitle="Could not load keys"
          loadingLabel="Loading keys"
          empty={
            <EmptyState
              title="No API keys"
              description="Keys let CMS plugins and scripts call the /v1 API for this organization."
              action={
                <Button variant="primary" onClick={() => document.getElementById('key-name')?.focus()}>
                  Create your first key
                </Button>
              }
            />
          }
        >
          {(rows) => (
            <ResponsiveTable
              caption="API keys"
              rows={rows}
              rowKey={(key) => key.id}
              title={{
                key: 'name',
                header: 'Name',
                className: 'font-medium text-zinc-900',
                cell: (key) => <span className="font-medium text-zinc-900">{key.name}</span>,
              }}
              columns={[
                {
                  key: 'prefix',
                  header: 'Key',
                  className: 'font-mono text-xs',
                  cell: (key) => `${key.prefix}…`,
                },
                {
                  key: 'sites',
                  header: 'Sites',
                  cell: (key) =>
                    key.siteIds === null ? (
                      <Badge>All sites</Badge>
                    ) : (
                      <span className="text-sm">{key.siteIds.map(siteName).join(', ')}</span>
                    ),
                },
                {
                  key: 'expires',
                  header: 'Expires',
                  className: 'whitespace-nowrap',
                  cell: (key) => (key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'),
                },
                {
                  key: 'used',
                  header: 'Last used',
                  className: 'whitespace-nowrap',
                  cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'),
                },
              ]}
              actions={(key) => (
                <>
                  <Button data-reroll={key.id} size="sm" variant="ghost" onClick={() => void reroll(key)}>
                    Re-roll<span className="sr-only"> {key.name}</span>
                  </Button>
                  <ConfirmButton
                    label={
                      <>
                        Revoke<span className="sr-only"> {key.name}</span>
                      </>
                    }
                    confirmLabel={
                      <>
                        Revoke now<span className="sr-only"> {key.name}</span>
                      </>
                    }
                    onConfirm={() => revoke(key)}
                  />
                </>
              )}
            />
          )}
        </ListView>
      </PlainSection>

      <Section
        id="create-key"
        title="Create a key"
        description="The secret is shown once, right after creation. Re-rolling rotates it and keeps name, scope and expiry."
      >
        <CreateKeyForm
          sites={sites.data?.sites}
          onCreated={async (result) => {
            // The list first: the panel's Done gives the focus to the new key's row, which must be there.
            await keys.mutate();
            setRevealed({ ...result, action: 'created' });
          }}
        />
      </Section>
    </div>
  );
}

function SecretPanel({ revealed, onDismiss }: { revealed: Revealed; onDismiss: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section
      aria-labelledby="secret-title"
      className="rounded-lg border border-green-300 bg-green-50 px-5 py-4 text-green-950"
    >
      <h2 id="secret-title" ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">
        {revealed.action === 'created' ? 'Key created' : 'Key re-rolled'}: {revealed.key.name}
      </h2>
      <p className="mt-1 text-sm">Copy the secret now. It is shown only once; we store only a hash.</p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="revealed-secret" className="block text-xs font-medium">
            Secret for {revealed.key.name}
          </label>
          <input
            id="revealed-secret"
            readOnly
            value={revealed.secret}
            onFocus={(e) => e.target.select()}
            className="mt-1 block w-full rounded-md border border-green-400 bg-white px-3 py-2 font-mono text-sm text-zinc-900"
          />
        </div>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(revealed.secret);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          Done
        </Button>
      </div>
      <p role="status" className="sr-only">
        {copied ? 'Secret copied to the clipboard.' : ''}
      </p>
      <p className="mt-3 text-xs">
        Send it as the <code className="font-mono">x-api-key</code> header.
      </p>
    </section>
  );
}

const EXPIRY_CHOICES = [
  { days: '', label: 'Never' },
  { days: '30', label: '30 days' },
  { days: '90', label: '90 days' },
  { days: '365', label: '1 year' },
];

const NO_SITE_TICKED =
  'need at least one tick, or untick “Limit to specific sites” for a key that sees every site.';

function CreateKeyForm({
  sites,
  onCreated,
}: {
  sites: Site[] | undefined;
  onCreated: (result: KeyWithSecret) => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [scoped, setScoped] = useState(false);
  const [siteIds, setSiteIds] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<FormErrors<'name' | 'siteIds'>>({});
  const [pending, setPending] = useState(false);
  const siteChoice = useRef<HTMLFieldSetElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    // Checked here because the API's own message ("omit it for a key that sees every site")
    // speaks of a field the dashboard does not show: here the way out is the checkbox.
    if (scoped && siteIds.size === 0) {
      setErrors({ siteIds: NO_SITE_TICKED });
      siteChoice.current?.querySelector('input')?.focus();
      return;
    }
    setPending(true);
    try {
      const result = await requestJson<KeyWithSecret>('/v1/keys', {
        body: {
          name: name.trim(),
          siteIds: scoped ? [...siteIds] : null,
          expiresInDays: expires === '' ? null : Number(expires),
        },
      });
      setName('');
      setScoped(false);
      setSiteIds(new Set());
      await onCreated(result);
    } catch (e) {
      setErrors(formErrorsOf(e, ['name', 'siteIds'], 'Could not create the key.'));
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          id="key-name"
          label="Name"
          name="keyName"
          required
          maxLength={100}
          placeholder="WordPress plugin"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <SelectField
          label="Expires"
          name="expiresInDays"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
        >
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.days} value={c.days}>
              {c.label}
            </option>
          ))}
        </SelectField>
      </div>
      <CheckboxField
        label="Limit to specific sites"
        hint="A scoped key sees only these sites and cannot register new ones."
        checked={scoped}
        onChange={(e) => setScoped(e.target.checked)}
      />
      {scoped ? (
        <fieldset ref={siteChoice} aria-describedby={errors.siteIds ? 'key-sites-error' : undefined}>
          <legend className="text-sm font-medium text-zinc-800">Sites this key can access</legend>
          <SiteChecklist
            sites={sites}
            selected={siteIds}
            onChange={setSiteIds}
            emptyText="Register a site first."
          />
          {errors.siteIds ? (
            <p id="key-sites-error" className="mt-2 text-xs font-medium text-red-700">
              Sites {errors.siteIds}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <FormError>{errors.form}</FormError>
      <Button type="submit" variant="primary" pending={pending}>
        Create key
      </Button>
    </form>
  );
}
