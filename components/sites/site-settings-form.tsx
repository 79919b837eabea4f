'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, type ReactNode, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import { splitFieldError } from '@/components/api/field-errors';
import type { Site, SiteResponse } from '@/components/api/types';
import { useForget } from '@/components/api/use-api';
import { type FieldErrors, useFormSubmit } from '@/components/api/use-form-submit';
import { Button } from '@/components/ui/button';
import { ErrorSummary, type SummaryError } from '@/components/ui/error-summary';
import { SelectField, SubmitWithStatus, TextAreaField, TextField } from '@/components/ui/field';
import { bareHostInput, withAssumedScheme } from '@/components/ui/form-checks';
import { Section } from '@/components/ui/surface';
import { formatCadence, parseStringArray } from '@/lib/format';
import { AppCheckboxes, appSwitches } from './app-checkboxes';
import { CADENCE_CHOICES } from './apps';
import { withSiteLink, withSiteName } from './duplicate-site';

const FIELDS = ['rootUrl', 'cadenceMinutes', 'a11yCadenceMinutes', 'excludePaths', 'stripParams'] as const;
type Field = (typeof FIELDS)[number];

/** Each field's label, which the error summary names it by; its control's id is `site-<field>`. */
const LABELS: Record<Field, string> = {
  rootUrl: 'Root URL',
  cadenceMinutes: 'Crawl cadence',
  a11yCadenceMinutes: 'Accessibility scan cadence',
  excludePaths: 'Exclude paths',
  stripParams: 'Strip query parameters',
};
const fieldId = (field: Field) => `site-${field}`;

/** The summary's lines: each field's error, linked to the field. */
function summaryErrors(errors: FieldErrors<Field>): SummaryError[] {
  return FIELDS.flatMap((field) => {
    const text = errors[field];
    return text ? [{ fieldId: fieldId(field), text: `${LABELS[field]} ${withSiteName(text)}` }] : [];
  });
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Cadence options, keeping a stored value that is not one of the presets selectable. */
function cadenceOptions(current: number | null) {
  const choices: Array<{ minutes: number; label: string }> = [...CADENCE_CHOICES];
  if (current !== null && !choices.some((c) => c.minutes === current)) {
    choices.push({ minutes: current, label: `${formatCadence(current)} (current)` });
  }
  return choices;
}

/**
 * The site's settings, then `children` (the page's other sections), then the danger zone: deleting
 * stays last, below everything a user scrolls to, and reads the hostname as saved here.
 */
export function SiteSettingsForm({
  site: initial,
  fieldDataConfigured,
  children,
}: {
  site: Site;
  /** The server has a CrUX API key: without one the Performance switch says it is inactive. */
  fieldDataConfigured: boolean;
  children?: ReactNode;
}) {
  const router = useRouter();
  const forget = useForget();
  const [site, setSite] = useState(initial);
  const [rootUrl, setRootUrl] = useState(initial.root_url);
  const [cadence, setCadence] = useState(String(initial.cadence_minutes));
  const [a11yCadence, setA11yCadence] = useState(initial.a11y_cadence_minutes?.toString() ?? '');
  const [apps, setApps] = useState(() => appSwitches((app) => initial[app.flag] === 1));
  const [excludePaths, setExcludePaths] = useState(parseStringArray(initial.exclude_paths).join('\n'));
  const [stripParams, setStripParams] = useState(parseStringArray(initial.strip_params).join('\n'));
  const { submit, errors, problem, pending, saved, summary } = useFormSubmit<Field, SiteResponse>({
    send: () =>
      requestJson<SiteResponse>(`/v1/sites/${site.id}`, {
        method: 'PATCH',
        body: {
          rootUrl: withAssumedScheme(rootUrl),
          cadenceMinutes: Number(cadence),
          a11yCadenceMinutes: a11yCadence === '' ? null : Number(a11yCadence),
          ...apps,
          excludePaths: lines(excludePaths),
          stripParams: lines(stripParams),
        },
      }),
    // The API names the field first whatever the status ("rootUrl: a site with this URL exists").
    fieldOf: (message) => {
      const { field, text } = splitFieldError(message, FIELDS);
      return field ? { field: field as Field, text } : null;
    },
    fallback: 'Could not save the settings.',
    onSaved: ({ site: saved }) => {
      setSite(saved);
      // A bare host was read as https: the field shows the address as saved.
      setRootUrl(saved.root_url);
      setA11yCadence(saved.a11y_cadence_minutes?.toString() ?? '');
      // The sites list shows the address, cadence and apps: it reads them again when opened.
      void forget('/v1/sites');
      router.refresh();
      return 'Settings saved.';
    },
  });

  return (
    <div className="space-y-8">
      <form onSubmit={submit} className="space-y-8" aria-label="Site settings">
        <Section title="General" headingLevel={2}>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="Root URL"
              id={fieldId('rootUrl')}
              name="rootUrl"
              {...bareHostInput}
              required
              value={rootUrl}
              onChange={(e) => setRootUrl(e.target.value)}
              hint="Changing the hostname changes which pages are crawled."
              error={errors.rootUrl ? withSiteLink(errors.rootUrl) : null}
              className="sm:col-span-2"
            />
            <SelectField
              label="Crawl cadence"
              id={fieldId('cadenceMinutes')}
              name="cadenceMinutes"
              value={cadence}
              onChange={(e) => setCadence(e.target.value)}
              error={errors.cadenceMinutes}
            >
              {cadenceOptions(site.cadence_minutes).map((c) => (
                <option key={c.minutes} value={c.minutes}>
                  {c.label}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Accessibility scan cadence"
              id={fieldId('a11yCadenceMinutes')}
              name="a11yCadenceMinutes"
              value={a11yCadence}
              onChange={(e) => setA11yCadence(e.target.value)}
              hint="Used while the Accessibility app is on."
              error={errors.a11yCadenceMinutes}
            >
              <option value="">Same as crawl</option>
              {cadenceOptions(site.a11y_cadence_minutes).map((c) => (
                <option key={c.minutes} value={c.minutes}>
                  {c.label}
                </option>
              ))}
            </SelectField>
          </div>
        </Section>

        <Section title="Apps" description="Switch monitoring features on or off for this site.">
          <fieldset>
            <legend className="sr-only">Apps enabled for {site.hostname}</legend>
            <AppCheckboxes
              className="grid gap-4 sm:grid-cols-2"
              value={apps}
              onChange={(key, on) => setApps((prev) => ({ ...prev, [key]: on }))}
              fieldDataConfigured={fieldDataConfigured}
            />
          </fieldset>
        </Section>

        <Section
          title="Crawl scope"
          description="Limit what the crawler visits. One entry per line, up to 200 each."
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <TextAreaField
              label="Exclude paths"
              id={fieldId('excludePaths')}
              name="excludePaths"
              rows={6}
              value={excludePaths}
              onChange={(e) => setExcludePaths(e.target.value)}
              placeholder={'/admin/**\n/search*'}
              hint="Glob patterns for internal paths that are never crawled."
              error={errors.excludePaths}
            />
            <TextAreaField
              label="Strip query parameters"
              id={fieldId('stripParams')}
              name="stripParams"
              rows={6}
              value={stripParams}
              onChange={(e) => setStripParams(e.target.value)}
              placeholder={'utm_source\nsessionid'}
              hint="Parameter names removed from URLs before crawling, so variants count once."
              error={errors.stripParams}
            />
          </div>
        </Section>

        <ErrorSummary ref={summary} title="The settings were not saved" errors={summaryErrors(errors)}>
          {problem?.message}
        </ErrorSummary>
        <SubmitWithStatus pending={pending} status={saved}>
          Save settings
        </SubmitWithStatus>
      </form>

      {children}

      <DeleteSite site={site} />
    </div>
  );
}

function DeleteSite({ site }: { site: Site }) {
  const router = useRouter();
  const forget = useForget();
  const [confirm, setConfirm] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await requestJson(`/v1/sites/${site.id}`, { method: 'DELETE' });
      await forget('/v1/sites');
      // The list says what happened and takes the focus (this form is gone with the site).
      router.push(`/sites?deleted=${encodeURIComponent(site.hostname)}`);
      router.refresh();
    } catch (e) {
      setError(failureMessage(e, 'Could not delete the site.'));
      setPending(false);
    }
  }

  return (
    <Section
      title="Delete site"
      description="Removes the site, its runs and reports. Its slot is freed at once; usage already recorded stays on the bill."
      className="border-red-200"
    >
      <form onSubmit={remove} className="flex flex-wrap items-end gap-3">
        <TextField
          label={
            <>
              Type <span className="font-mono">{site.hostname}</span> to confirm
            </>
          }
          name="confirmHostname"
          autoComplete="off"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={error}
          className="w-full sm:w-80"
        />
        <Button type="submit" variant="danger" pending={pending} disabled={confirm.trim() !== site.hostname}>
          Delete site
        </Button>
      </form>
    </Section>
  );
}
