'use client';

import { useId, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { SearchConnection } from '@/components/api/types';
import { type FieldErrors, useFormSubmit } from '@/components/api/use-form-submit';
import { ErrorSummary, type SummaryError } from '@/components/ui/error-summary';
import { SubmitWithStatus, TextField } from '@/components/ui/field';
import { Section } from '@/components/ui/surface';
import { formatNumber } from '@/lib/format';

type Field = 'dropThresholdPct' | 'dropMinClicks';
const LABELS: Record<Field, string> = {
  dropThresholdPct: 'Drop threshold (percent)',
  dropMinClicks: 'Minimum clicks the week before',
};
const LIMITS: Record<Field, { min: number; max: number }> = {
  dropThresholdPct: { min: 5, max: 95 },
  dropMinClicks: { min: 0, max: 10_000_000 },
};

/** Why a typed value cannot be sent, in the words after its label; null when it can. */
function problemOf(field: Field, raw: string): string | null {
  const { min, max } = LIMITS[field];
  if (!/^\d+$/.test(raw.trim())) return 'must be a whole number';
  const n = Number(raw.trim());
  if (n < min) return `must be at least ${min}`;
  if (n > max) return `must be at most ${max}`;
  return null;
}

/**
 * The traffic-drop alert's rule (PATCH /v1/sites/{id}/search): alert when the last 7 days have the
 * threshold's percent fewer clicks than the 7 before, which had at least the minimum. Members read it.
 */
export function DropAlertSettings({
  siteId,
  dropAlert,
  canManage,
  onSaved,
}: {
  siteId: string;
  dropAlert: SearchConnection['dropAlert'];
  canManage: boolean;
  onSaved: () => void;
}) {
  const description =
    'An alert goes to the site’s search alert recipients and webhooks (Notifications) once per drop, when the last 7 days’ clicks fall this far below the 7 days before.';
  return (
    <Section id="search-alert" title="Traffic-drop alert" headingLevel={3} description={description}>
      {canManage ? (
        <DropAlertForm siteId={siteId} dropAlert={dropAlert} onSaved={onSaved} />
      ) : (
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-xs font-medium text-zinc-600">{LABELS.dropThresholdPct}</dt>
            <dd className="text-zinc-900">{dropAlert.thresholdPct}% fewer clicks</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-zinc-600">{LABELS.dropMinClicks}</dt>
            <dd className="text-zinc-900">{formatNumber(dropAlert.minClicks)}</dd>
          </div>
        </dl>
      )}
    </Section>
  );
}

function DropAlertForm({
  siteId,
  dropAlert,
  onSaved,
}: {
  siteId: string;
  dropAlert: SearchConnection['dropAlert'];
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<Record<Field, string>>({
    dropThresholdPct: String(dropAlert.thresholdPct),
    dropMinClicks: String(dropAlert.minClicks),
  });
  const { submit, errors, problem, pending, saved, summary } = useFormSubmit<Field, SearchConnection>({
    check: () => {
      const found: FieldErrors<Field> = {};
      for (const field of Object.keys(LABELS) as Field[]) {
        const text = problemOf(field, draft[field]);
        if (text) found[field] = text;
      }
      return found;
    },
    send: () =>
      requestJson<SearchConnection>(`/v1/sites/${siteId}/search`, {
        method: 'PATCH',
        body: {
          dropThresholdPct: Number(draft.dropThresholdPct),
          dropMinClicks: Number(draft.dropMinClicks),
        },
      }),
    fieldOf: (message, status) => {
      const match = /^(dropThresholdPct|dropMinClicks): (.*)$/s.exec(message);
      return status === 422 && match ? { field: match[1] as Field, text: match[2] ?? message } : null;
    },
    fallback: 'Could not save the alert settings.',
    onSaved: (view) => {
      onSaved();
      return `Saved: alert at ${view.dropAlert.thresholdPct}% fewer clicks, from ${formatNumber(view.dropAlert.minClicks)} clicks the week before.`;
    },
  });
  const prefix = useId();
  const idOf = (field: Field) => `${prefix}-${field}`;

  const listed: SummaryError[] = (Object.keys(errors) as Field[]).map((field) => ({
    fieldId: idOf(field),
    text: `${LABELS[field]} ${errors[field]}`,
  }));
  return (
    <form onSubmit={submit} noValidate aria-label="Traffic-drop alert" className="space-y-4">
      <ErrorSummary ref={summary} title="The alert settings were not saved" errors={listed}>
        {problem?.message ?? null}
      </ErrorSummary>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {(Object.keys(LABELS) as Field[]).map((field) => (
          <TextField
            key={field}
            id={idOf(field)}
            label={LABELS[field]}
            hint={
              field === 'dropThresholdPct'
                ? '5 to 95; 30 alerts when clicks fall by 30% or more.'
                : 'A quieter week before never alerts (small numbers swing by chance).'
            }
            inputMode="numeric"
            value={draft[field]}
            error={errors[field] ? `${LABELS[field]} ${errors[field]}` : null}
            onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))}
          />
        ))}
      </div>
      <SubmitWithStatus pending={pending} status={saved}>
        Save alert settings
      </SubmitWithStatus>
    </form>
  );
}
