'use client';

import Link from 'next/link';
import { type ReactNode, useId, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { MonitorResponse, UptimeMonitor } from '@/components/api/types';
import { type FormProblem, onInvalid, useFormSubmit } from '@/components/api/use-form-submit';
import { Button } from '@/components/ui/button';
import { Choice } from '@/components/ui/choice';
import { ErrorSummary, type SummaryError } from '@/components/ui/error-summary';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { WEBHOOK_KINDS } from '@/lib/notify/webhook';
import {
  CADENCES_SECONDS,
  MAX_ALERT_EMAILS,
  MAX_ALERT_WEBHOOKS,
  MAX_EXPECTED_STATUSES,
  MAX_GRACE_SECONDS,
  MAX_KEYWORD_LENGTH,
  MAX_MONITOR_NAME_LENGTH,
  MAX_PERIOD_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_PERIOD_SECONDS,
  MIN_TIMEOUT_SECONDS,
} from '@/lib/uptime/limits';
import {
  bodyOf,
  checkDraft,
  type DraftField,
  draftOf,
  fieldLabel,
  fieldOfApiError,
  type MonitorDraft,
} from './monitor-draft';
import { cadenceLabel, WEBHOOK_KIND_LABELS } from './words';

/** Where the form-level failure came from, for the plain-words explanation under the summary's title. */
type ProblemKind = 'allowance' | 'app-off' | 'other';

/**
 * Create or edit a monitor with the spec's limits: checked here first (errors under each field and
 * in a summary that takes focus), then by the API, whose "field: message" answers land under the
 * same fields. Past the monitor allowance (403) and with the app off (409) the summary says what
 * that means and where to change it. The kind is chosen at creation: a URL probed (with optional
 * status and keyword expectations) or a heartbeat a job pings (period and grace).
 */
export function MonitorForm({
  siteId,
  monitor,
  onSaved,
  onCancel,
}: {
  siteId: string;
  /** Edit this monitor; create one when absent. */
  monitor?: UptimeMonitor;
  onSaved: (monitor: UptimeMonitor) => void;
  onCancel?: () => void;
}) {
  const editing = monitor !== undefined;
  const [draft, setDraft] = useState<MonitorDraft>(() => draftOf(monitor));
  const { submit, errors, setErrors, problem, pending, summary } = useFormSubmit<DraftField, MonitorResponse>(
    {
      check: () => checkDraft(draft),
      send: () =>
        requestJson<MonitorResponse>(
          editing
            ? `/v1/sites/${siteId}/uptime/monitors/${monitor.id}`
            : `/v1/sites/${siteId}/uptime/monitors`,
          { method: editing ? 'PATCH' : 'POST', body: bodyOf(draft, !editing) },
        ),
      fieldOf: onInvalid(fieldOfApiError),
      fallback: `Could not ${editing ? 'save' : 'create'} the monitor.`,
      onSaved: ({ monitor: saved }) => {
        if (!editing) setDraft(draftOf());
        onSaved(saved);
        return undefined;
      },
    },
  );
  const prefix = useId();
  const heartbeat = draft.kind === 'heartbeat';
  const idOf = (field: DraftField) => `${prefix}-${field.replace('.', '-')}`;

  const set = <K extends keyof MonitorDraft>(key: K, value: MonitorDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const fieldError = (field: DraftField) => (errors[field] ? `${fieldLabel(field)} ${errors[field]}` : null);
  const listed: SummaryError[] = (Object.keys(errors) as DraftField[]).map((field) => ({
    fieldId: field === 'alertWebhooks' ? `${prefix}-add-webhook` : idOf(field),
    text: fieldError(field) ?? '',
  }));

  const hooks = draft.alertWebhooks;
  const setHook = (index: number, change: Partial<MonitorDraft['alertWebhooks'][number]>) =>
    set(
      'alertWebhooks',
      hooks.map((h, i) => (i === index ? { ...h, ...change } : h)),
    );

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={editing ? 'Edit monitor' : 'New monitor'}
      className="space-y-5"
    >
      <ErrorSummary
        ref={summary}
        title={problem ? problemTitle(kindOf(problem, editing), editing) : 'There is a problem'}
        errors={listed}
      >
        {problem ? (
          <ProblemText kind={kindOf(problem, editing)} message={problem.message} siteId={siteId} />
        ) : null}
      </ErrorSummary>

      {editing ? null : (
        <Choice
          legend="What it watches"
          name={`${prefix}-kind`}
          value={draft.kind}
          options={[
            { value: 'http', label: 'A URL (probed)' },
            { value: 'heartbeat', label: 'A job that pings (heartbeat)' },
          ]}
          onChange={(kind) => {
            set('kind', kind as MonitorDraft['kind']);
            setErrors({});
          }}
        />
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        {heartbeat ? null : (
          <TextField
            id={idOf('url')}
            label="URL"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://www.example.com/health"
            required
            value={draft.url}
            onChange={(e) => set('url', e.target.value)}
            hint="The address probed from four regions. Its host may differ from the site's."
            error={fieldError('url')}
            className="sm:col-span-2"
          />
        )}
        <TextField
          id={idOf('name')}
          label={heartbeat ? 'Name' : 'Name (optional)'}
          name="name"
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          hint={
            heartbeat
              ? `Up to ${MAX_MONITOR_NAME_LENGTH} characters: the job, as alerts should name it ("Nightly backup").`
              : `Up to ${MAX_MONITOR_NAME_LENGTH} characters; without one the URL is shown.`
          }
          error={fieldError('name')}
          className="sm:col-span-2"
        />
        {heartbeat ? (
          <>
            <TextField
              id={idOf('periodMinutes')}
              label="Period (minutes)"
              name="periodMinutes"
              type="number"
              inputMode="numeric"
              min={MIN_PERIOD_SECONDS / 60}
              max={MAX_PERIOD_SECONDS / 60}
              step={1}
              value={draft.periodMinutes}
              onChange={(e) => set('periodMinutes', e.target.value)}
              hint="The most time between two runs of the job: 60 for an hourly job, 1440 for a daily one."
              error={fieldError('periodMinutes')}
            />
            <TextField
              id={idOf('graceMinutes')}
              label="Grace (minutes)"
              name="graceMinutes"
              type="number"
              inputMode="numeric"
              min={0}
              max={MAX_GRACE_SECONDS / 60}
              step={1}
              value={draft.graceMinutes}
              onChange={(e) => set('graceMinutes', e.target.value)}
              hint="How late a ping may be before the incident opens: a job's run time, a slow start."
              error={fieldError('graceMinutes')}
            />
          </>
        ) : (
          <>
            <SelectField
              id={idOf('cadenceSeconds')}
              label="Check interval"
              name="cadenceSeconds"
              value={draft.cadenceSeconds}
              onChange={(e) => set('cadenceSeconds', e.target.value)}
              error={fieldError('cadenceSeconds')}
            >
              {CADENCES_SECONDS.map((s) => (
                <option key={s} value={s}>
                  {cadenceLabel(s)}
                </option>
              ))}
            </SelectField>
            <TextField
              id={idOf('timeoutSeconds')}
              label="Timeout (seconds)"
              name="timeoutSeconds"
              type="number"
              inputMode="numeric"
              min={MIN_TIMEOUT_SECONDS}
              max={MAX_TIMEOUT_SECONDS}
              step={1}
              value={draft.timeoutSeconds}
              onChange={(e) => set('timeoutSeconds', e.target.value)}
              hint={`${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}; a slower answer counts as a failure.`}
              error={fieldError('timeoutSeconds')}
            />
            <fieldset className="space-y-4 sm:col-span-2">
              <legend className="text-sm font-medium text-zinc-800">Expectations (optional)</legend>
              <div className="grid gap-5 sm:grid-cols-2">
                <TextField
                  id={idOf('expectedStatuses')}
                  label="Expected status codes"
                  name="expectedStatuses"
                  placeholder="200-299, 401"
                  value={draft.expectedStatuses}
                  onChange={(e) => set('expectedStatuses', e.target.value)}
                  hint={`Codes or ranges, separated by commas (at most ${MAX_EXPECTED_STATUSES}); empty: any 2xx or 3xx is up.`}
                  error={fieldError('expectedStatuses')}
                  className="sm:col-span-2"
                />
                <TextField
                  id={idOf('keyword')}
                  label="Keyword"
                  name="keyword"
                  value={draft.keyword}
                  onChange={(e) => set('keyword', e.target.value)}
                  hint={`Text looked for in the first 1 MiB of the page, case-sensitive (up to ${MAX_KEYWORD_LENGTH} characters).`}
                  error={fieldError('keyword')}
                />
                <SelectField
                  label="The keyword must"
                  name="keywordAbsent"
                  value={draft.keywordAbsent ? 'absent' : 'present'}
                  onChange={(e) => set('keywordAbsent', e.target.value === 'absent')}
                  hint="Not appear: an error banner, a maintenance notice."
                >
                  <option value="present">appear</option>
                  <option value="absent">not appear</option>
                </SelectField>
              </div>
            </fieldset>
          </>
        )}
        <p className="text-sm text-zinc-700 sm:col-span-2">
          Who hears about an outage: the site&apos;s uptime receivers, set in{' '}
          <Link href="/notifications" className="font-medium text-accent-700 underline">
            Notifications
          </Link>{' '}
          (or under the site&apos;s Settings), and the extra receivers below. The monitor page warns when that
          is nobody.
        </p>
        <TextAreaField
          id={idOf('alertEmails')}
          label="Extra alert emails (optional)"
          name="alertEmails"
          rows={3}
          value={draft.alertEmails}
          onChange={(e) => set('alertEmails', e.target.value)}
          hint={`One address per line, up to ${MAX_ALERT_EMAILS}. They get this monitor's outage and recovery alerts on top of the site's notification settings.`}
          error={fieldError('alertEmails')}
          className="sm:col-span-2"
        />
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-zinc-800">Extra alert webhooks (optional)</legend>
        <p className="text-xs text-zinc-600">
          Up to {MAX_ALERT_WEBHOOKS}: Slack, Discord, Microsoft Teams or a plain HTTP endpoint.
        </p>
        {hooks.length > 0 ? (
          <ol className="space-y-3">
            {hooks.map((hook, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              <li key={i} className="grid items-start gap-3 sm:grid-cols-[12rem_1fr_auto]">
                <SelectField
                  label={`Webhook ${i + 1} kind`}
                  value={hook.kind}
                  onChange={(e) => setHook(i, { kind: e.target.value as (typeof WEBHOOK_KINDS)[number] })}
                >
                  {WEBHOOK_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {WEBHOOK_KIND_LABELS[kind]}
                    </option>
                  ))}
                </SelectField>
                <TextField
                  id={idOf(`alertWebhooks.${i}`)}
                  label={`Webhook ${i + 1} URL`}
                  type="url"
                  inputMode="url"
                  value={hook.url}
                  onChange={(e) => setHook(i, { url: e.target.value })}
                  error={fieldError(`alertWebhooks.${i}`)}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  className="sm:mt-7"
                  aria-label={`Remove webhook ${i + 1}`}
                  onClick={() => {
                    set(
                      'alertWebhooks',
                      hooks.filter((_, j) => j !== i),
                    );
                    setErrors({});
                    document.getElementById(`${prefix}-add-webhook`)?.focus();
                  }}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ol>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            id={`${prefix}-add-webhook`}
            size="sm"
            disabled={hooks.length >= MAX_ALERT_WEBHOOKS}
            onClick={() => {
              set('alertWebhooks', [...hooks, { kind: 'slack', url: '' }]);
              // The new row's URL field takes focus once it is rendered.
              requestAnimationFrame(() =>
                document.getElementById(idOf(`alertWebhooks.${hooks.length}`))?.focus(),
              );
            }}
          >
            Add webhook
          </Button>
          <span className="text-xs text-zinc-600">
            {hooks.length} of {MAX_ALERT_WEBHOOKS}
          </span>
        </div>
        {errors.alertWebhooks ? (
          <p className="text-xs font-medium text-red-700">{fieldError('alertWebhooks')}</p>
        ) : null}
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" pending={pending}>
          {editing ? 'Save monitor' : 'Create monitor'}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Past the monitor allowance (403 on create) or with the app off (409): the summary explains it. */
function kindOf({ status, message }: FormProblem, editing: boolean): ProblemKind {
  if (status === 403 && !editing && /monitor/i.test(message)) return 'allowance';
  return status === 409 ? 'app-off' : 'other';
}

function problemTitle(kind: ProblemKind, editing: boolean): string {
  switch (kind) {
    case 'allowance':
      return 'No included uptime monitor is left';
    case 'app-off':
      return 'The Uptime app is off for this site';
    default:
      return editing ? 'The monitor was not saved' : 'The monitor was not created';
  }
}

function ProblemText({
  kind,
  message,
  siteId,
}: {
  kind: ProblemKind;
  message: string;
  siteId: string;
}): ReactNode {
  switch (kind) {
    case 'allowance': {
      // "... used up: 4 of 4 (...)": the counts, when the API gives them.
      const counts = /(\d+) of (\d+)/.exec(message);
      return (
        <p>
          Your organization&apos;s included uptime monitors are all in use
          {counts ? ` (${counts[1]} of ${counts[2]})` : ''}: each site you register adds to the allowance, and
          paused monitors count too. To add this one, delete a monitor you no longer need, or turn on overage
          billing on the{' '}
          <Link href="/billing" className="font-medium underline">
            Billing page
          </Link>
          : extra monitors are then billed each month.
        </p>
      );
    }
    case 'app-off':
      return (
        <p>
          Monitors can only be added while the app is on.{' '}
          <Link href={`/sites/${siteId}/settings`} className="font-medium underline">
            Turn it on in the site settings
          </Link>
          .
        </p>
      );
    default:
      return <p>{message}</p>;
  }
}
