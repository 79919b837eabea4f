'use client';

import { type FormEvent, useState } from 'react';
import { useSummaryFocus } from '@/components/ui/error-summary';
import { ApiClientError, failureMessage } from './client';

/** A failure no field owns (the allowance, the app off, a permission): the API's words and status. */
export type FormProblem = { message: string; status: number };

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export type FormSubmitSpec<Field extends string, Result> = {
  /** The browser's own checks, in the form's words: each problem as the words after its field's label. */
  check?: () => FieldErrors<Field>;
  /** Sends the form. */
  send: () => Promise<Result>;
  /**
   * The field an API failure belongs to (its "field: message" answer), with the words to show under
   * it; null leaves it the form's problem, shown in the summary.
   */
  fieldOf: (message: string, status: number) => { field: Field; text: string } | null;
  /** The problem's words when the failure did not come from the API (the network). */
  fallback: string;
  /** After a save: what to announce in the form's status line, if anything. */
  onSaved: (result: Result) => string | undefined | Promise<string | undefined>;
};

/**
 * The one submit sequence of the dashboard's forms: check in the browser (errors under the fields
 * and in the summary, which takes the focus, nothing sent), send, then either announce the save in
 * the status line or put the API's refusal under its field or in the summary and focus the summary
 * again (each attempt is read out, even when it fails the same way twice).
 */
export function useFormSubmit<Field extends string, Result>(spec: FormSubmitSpec<Field, Result>) {
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState('');
  const { summary, focusSummary } = useSummaryFocus();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSaved('');
    const found = spec.check?.() ?? {};
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusSummary();
      return;
    }
    setPending(true);
    let result: Result;
    try {
      result = await spec.send();
    } catch (e) {
      setPending(false);
      const message = failureMessage(e, spec.fallback);
      const status = e instanceof ApiClientError ? e.status : 0;
      const owned = spec.fieldOf(message, status);
      if (owned) setErrors({ [owned.field]: owned.text } as FieldErrors<Field>);
      else setProblem({ message, status });
      focusSummary();
      return;
    }
    setPending(false);
    setSaved((await spec.onSaved(result)) ?? '');
  }

  return {
    submit,
    pending,
    errors,
    setErrors,
    problem,
    /** The status line's words after a save ('' before one and once the form changes). */
    saved,
    setSaved,
    /** The error summary's ref: it takes the focus after a failed attempt. */
    summary,
  };
}

/** For a form whose API errors name a field only on a 422 (the zod answer): the others are the form's. */
export const onInvalid =
  <Field extends string>(fieldOf: (message: string) => { field: Field | null; text: string }) =>
  (message: string, status: number): { field: Field; text: string } | null => {
    if (status !== 422) return null;
    const { field, text } = fieldOf(message);
    return field ? { field, text } : null;
  };
