import { createHash } from 'node:crypto';

/*
 * The few pieces every public rendition (HTML, Atom, SVG) shares: escaping, and the hash a strict
 * Content Security Policy names the page's one style sheet by.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text and attribute values in HTML and XML: everything that could close or open markup escaped. */
export function escapeXml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A CSP source naming exactly this inline block: `'sha256-...'`. */
export function cspHash(content: string): string {
  return `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}

/** `2026-11-28T10:02:00Z`: RFC 3339, as Atom and the HTML `datetime` attribute want it. */
export function rfc3339(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `28 Nov 2026`, in UTC: the page is the same for every visitor (it is cached), so no local time. */
export function dayLabel(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** `28 Nov`: a day among its neighbours, whose year is said once beside them. */
export function dayMonthLabel(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** `10:02 UTC`. */
export function clockLabel(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/**
 * A shown time as HTML `<time>`: `28 Nov 2026, 10:02 UTC`, or `10:02 UTC` when it falls on the UTC
 * day of `from` (an end after its start). Its `datetime` is to the minute, as the text is.
 */
export function timeTag(ms: number, from?: number): string {
  const day = dayLabel(ms);
  const text = from !== undefined && dayLabel(from) === day ? clockLabel(ms) : `${day}, ${clockLabel(ms)}`;
  return `<time datetime="${new Date(ms).toISOString().slice(0, 16)}Z">${escapeXml(text)}</time>`;
}

/** `3 h 12 min`, `14 min`, `under a minute`. */
export function durationLabel(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days ? `${days} d` : '', hours ? `${hours} h` : '', rest ? `${rest} min` : '']
    .filter(Boolean)
    .join(' ');
}

/** An uptime percentage for display: two decimals, never rounded up to 100 while there was downtime. */
export function pctLabel(pct: number): string {
  const floored = Math.floor(pct * 100) / 100;
  return `${floored.toFixed(2)}%`;
}
