'use client';

import Link from 'next/link';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiClientError, failureMessage, requestJson } from '@/components/api/client';
import { splitFieldError } from '@/components/api/field-errors';
import type { Site, SiteResponse } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { FormError, SelectField, TextField } from '@/components/ui/field';
import { bareHostInput, withAssumedScheme } from '@/components/ui/form-checks';
import { AppCheckboxes, appSwitches } from './app-checkboxes';
import { CADENCE_CHOICES, crawlsSite } from './apps';
import { withSiteLink } from './duplicate-site';

const initialApps = () => appSwitches((app) => app.defaultOn);

export function RegisterSiteForm({
  onRegistered,
  onSubmitted,
  fieldDataConfigured,
}: {
  onRegistered: (site: Site) => void;
  /** Each attempt: the page clears the lines an earlier action left above. */
  onSubmitted?: () => void;
  /** The server has a CrUX API key: without one the Performance switch says it would be inactive. */
  fieldDataConfigured: boolean;
}) {
  const [rootUrl, setRootUrl] = useState('');
  const [cadence, setCadence] = useState('10080');
  const [apps, setApps] = useState(initialApps);
  const [pending, setPending] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [formError, setFormError] = useState<{ text: string; quota: boolean } | null>(null);
  const [registered, setRegistered] = useState<Site | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLParagraphElement>(null);

  // The form empties on success: focus moves to what happened, which leads on to the new site.
  useEffect(() => {
    if (registered) result.current?.focus();
  }, [registered]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    onSubmitted?.();
    setUrlError(null);
    setFormError(null);
    setRegistered(null);
    setPending(true);
    try {
      const { site } = await requestJson<SiteResponse>('/v1/sites', {
        body: { rootUrl: withAssumedScheme(rootUrl), cadenceMinutes: Number(cadence), ...apps },
      });
      setRootUrl('');
      setApps(initialApps());
      setRegistered(site);
      onRegistered(site);
    } catch (e) {
      const message = failureMessage(e, 'Could not register the site.');
      const { field, text } = splitFieldError(message, ['rootUrl', 'cadenceMinutes']);
      if (field === 'rootUrl') {
        setUrlError(`Root URL ${text}`);
        urlInput.current?.focus();
      } else {
        setFormError({ text: message, quota: e instanceof ApiClientError && e.status === 403 });
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} aria-labelledby="register-site-title" className="space-y-5">
      <TextField
        ref={urlInput}
        label="Root URL"
        name="rootUrl"
        {...bareHostInput}
        placeholder="https://www.example.com"
        required
        value={rootUrl}
        onChange={(e) => setRootUrl(e.target.value)}
        hint="We crawl pages on this hostname and check every link they contain."
        error={urlError ? withSiteLink(urlError) : null}
      />
      <SelectField
        label="Crawl cadence"
        name="cadenceMinutes"
        value={cadence}
        onChange={(e) => setCadence(e.target.value)}
      >
        {CADENCE_CHOICES.map((c) => (
          <option key={c.minutes} value={c.minutes}>
            {c.label}
          </option>
        ))}
      </SelectField>
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">Apps</legend>
        <AppCheckboxes
          className="mt-2 grid gap-3 sm:grid-cols-2"
          value={apps}
          onChange={(key, on) => setApps((prev) => ({ ...prev, [key]: on }))}
          fieldDataConfigured={fieldDataConfigured}
        />
      </fieldset>
      <div className="space-y-2">
        {formError ? (
          <FormError boxed>
            {formError.text}
            {formError.quota ? (
              <>
                {' '}
                <Link href="/billing" className="font-medium underline">
                  Review billing
                </Link>
              </>
            ) : null}
          </FormError>
        ) : null}
        <p
          ref={result}
          role="status"
          tabIndex={-1}
          className="rounded-md text-sm text-green-800 outline-offset-4 empty:hidden focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          {registered ? (
            <>
              Registered {registered.hostname}.{' '}
              {crawlsSite({ scanner: registered.scanner_enabled === 1, a11y: registered.a11y_enabled === 1 })
                ? 'Its first crawl starts within a minute. '
                : null}
              <Link href={`/sites/${registered.id}`} className="font-medium text-accent-700 underline">
                Open {registered.hostname}
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <Button type="submit" variant="primary" pending={pending}>
        Register site
      </Button>
    </form>
  );
}
