import { failureMessage } from './client';

/**
 * The API names the failing field first ("rootUrl: must be an http(s) URL"). Forms use this to put
 * the message under the right input, and fall back to a form-level message otherwise.
 */
export function splitFieldError(
  message: string,
  fields: readonly string[],
): { field: string | null; text: string } {
  const match = /^([A-Za-z]+)(?:\.\d+)?: (.*)$/s.exec(message);
  if (match?.[1] && fields.includes(match[1])) return { field: match[1], text: match[2] ?? message };
  return { field: null, text: message };
}

export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

/**
 * A failed submit as form errors: under its field when the form shows that field, otherwise the
 * whole message at form level (`fallback` when the failure did not come from the API).
 */
export function formErrorsOf<F extends string>(
  error: unknown,
  fields: readonly F[],
  fallback: string,
): FormErrors<F> {
  const message = failureMessage(error, fallback);
  const { field, text } = splitFieldError(message, fields);
  return field ? ({ [field]: text } as FormErrors<F>) : ({ form: message } as FormErrors<F>);
}
