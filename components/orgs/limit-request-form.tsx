'use client';

import { type FormEvent, useEffect, useRef, useState } from 'react';
import { requestJson } from '@/components/api/client';
import { type FormErrors, formErrorsOf } from '@/components/api/field-errors';
import type { LimitRequestView, OrgQuota } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { Button } from '@/components/ui/button';
import { useFieldErrorFocus } from '@/components/ui/error-summary';
import { FormError, TextAreaField, TextField } from '@/components/ui/field';
import { Alert, Badge, LoadError, Loading, Skeleton } from '@/components/ui/surface';
import { formatDateTime } from '@/lib/format';

export function LimitRequestPanel() {
  const quota = useApi<OrgQuota>('/v1/me/org-quota');
  const result = useRef<HTMLDivElement>(null);
  const [sent, setSent] = useState(0);
  useEffect(() => {
    if (sent > 0) result.current?.focus();
  }, [sent]);
  if (quota.error) return <LoadError title="Could not load your organization quota" error={quota.error} />;
  if (!quota.data) {
    return (
      <Loading label="Loading quota">
        <Skeleton className="h-40 w-full" />
      </Loading>
    );
  }
  const q = quota.data;
  const pending = q.latestRequest?.status === 'pending';
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-4 sm:max-w-md">
        <div>
          <dt className="text-xs font-medium text-zinc-600 uppercase">Organizations</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums">
            {q.used} <span className="text-base font-normal text-zinc-600">of {q.limit}</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-zinc-600 uppercase">Can create more</dt>
          <dd className="mt-2">
            <Badge tone={q.canCreate ? 'success' : 'warning'}>{q.canCreate ? 'Yes' : 'Limit reached'}</Badge>
          </dd>
        </div>
      </dl>
      {/* Sending swaps the form for the pending request: the focus goes to it, not to the body. */}
      <div ref={result} tabIndex={-1} className="rounded-md outline-offset-4 focus-visible:outline-2">
        {q.latestRequest ? <LatestRequest request={q.latestRequest} /> : null}
      </div>
      {pending ? null : (
        <LimitRequestForm
          currentLimit={q.limit}
          onSent={async () => {
            await quota.mutate();
            setSent((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}

function LatestRequest({ request }: { request: LimitRequestView }) {
  const tone = request.status === 'approved' ? 'success' : request.status === 'denied' ? 'danger' : 'info';
  return (
    <Alert tone={tone === 'danger' ? 'warning' : tone} title={`Latest request: ${request.status}`}>
      Asked for {request.requestedLimit} organizations on {formatDateTime(request.createdAt)}.
      {request.status === 'pending' ? ' We will email you when it is decided.' : null}
    </Alert>
  );
}

function LimitRequestForm({ currentLimit, onSent }: { currentLimit: number; onSent: () => Promise<void> }) {
  const [requested, setRequested] = useState(String(currentLimit + 1));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FormErrors<'requestedLimit' | 'reason'>>({});
  const [pending, setPending] = useState(false);
  const { form, focusError } = useFieldErrorFocus();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setPending(true);
    try {
      await requestJson('/v1/me/limit-requests', {
        body: { kind: 'user_orgs', requestedLimit: Number(requested), reason: reason.trim() },
      });
      await onSent();
    } catch (e) {
      setErrors(formErrorsOf(e, ['requestedLimit', 'reason'], 'Could not send the request.'));
      focusError();
    } finally {
      setPending(false);
    }
  }

  return (
    <form ref={form} onSubmit={submit} className="space-y-4 sm:max-w-md">
      <TextField
        label="Organizations you need"
        name="requestedLimit"
        type="number"
        min={currentLimit + 1}
        required
        value={requested}
        onChange={(e) => setRequested(e.target.value)}
        hint={`Your current limit is ${currentLimit}.`}
        error={errors.requestedLimit}
      />
      <TextAreaField
        label="Why do you need more?"
        name="reason"
        rows={4}
        required
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={errors.reason}
      />
      <FormError>{errors.form}</FormError>
      <Button type="submit" variant="primary" pending={pending}>
        Send request
      </Button>
    </form>
  );
}
