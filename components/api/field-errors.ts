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
