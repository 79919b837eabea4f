/*
 * Checks forms make in the browser before sending, the API checking again. Pure and
 * self-contained, shared by the forms that take addresses and URLs (uptime monitors, notification
 * settings).
 */

/** The non-blank lines of a one-per-line list, trimmed. */
export const emailLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Shaped like an email address (the API's own check is stricter). */
export const isEmailAddress = (text: string) => EMAIL.test(text);

/** Why a typed URL cannot be sent, in the words after its field's label; null when it can. */
export function urlProblem(raw: string): string | null {
  const value = raw.trim();
  if (!value) return 'is required';
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {}
  return 'must be a full address starting with http:// or https://';
}

/**
 * What people type for a site is often its bare host ("example.com"); the API wants an absolute
 * URL, so a value without a scheme is read as https. Anything with a scheme is left for the API to
 * judge (ftp://... gets its own message).
 */
export function withAssumedScheme(raw: string): string {
  const value = raw.trim();
  if (!value || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  return `https://${value.replace(/^\/+/, '')}`;
}

/**
 * The input attributes for a field read through withAssumedScheme: not type="url", whose browser
 * check would refuse a bare host ("example.com") with its own bubble ("Please enter a URL.") before
 * the form could read it as https; still the URL keyboard, without capitals or spell checking.
 */
export const bareHostInput = {
  type: 'text',
  inputMode: 'url',
  autoCapitalize: 'none',
  spellCheck: false,
} as const;
