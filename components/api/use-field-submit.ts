'use client';

import { useState } from 'react';
import { type FormErrors, formErrorsOf } from './field-errors';

/**
 * The submit of the dashboard's small inline forms (no error summary; see useFormSubmit for the
 * forms that have one): send, and on a refusal put the API's words under the field it names, which
 * takes the focus, or on the form's own line. `focusField` finds a field's control (a field the form
 * cannot focus, such as a group of checkboxes, is left out by finding nothing).
 */
export function useFieldSubmit<F extends string>({
  fields,
  fallback,
  focusField,
}: {
  fields: readonly F[];
  /** The form's line when the failure did not come from the API (the network). */
  fallback: string;
  focusField: (field: F) => void;
}) {
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const [pending, setPending] = useState(false);

  /** Sends; the form's earlier errors go first. */
  async function attempt(send: () => Promise<void>): Promise<void> {
    setErrors({});
    setPending(true);
    try {
      await send();
    } catch (e) {
      const refused = formErrorsOf(e, fields, fallback);
      setErrors(refused);
      const field = fields.find((f) => refused[f]);
      if (field) focusField(field);
    } finally {
      setPending(false);
    }
  }

  return { errors, setErrors, pending, attempt };
}
