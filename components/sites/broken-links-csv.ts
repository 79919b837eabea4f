import type { BrokenLink } from '@/components/api/types';

const COLUMNS = [
  'target_url',
  'status',
  'status_code',
  'kind',
  'detail',
  'source_url',
  'link_text',
  'link_selector',
  'redirect_chain',
] as const satisfies ReadonlyArray<keyof BrokenLink>;

/** RFC 4180 quoting; a leading =, +, - or @ is defused so spreadsheets do not run it as a formula. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function brokenLinksCsv(rows: readonly BrokenLink[]): string {
  const lines = [COLUMNS.join(',')];
  for (const row of rows) lines.push(COLUMNS.map((c) => cell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A redirect chain as its hops, whether stored as a JSON array or as "a -> b" text. */
export function redirectHops(chain: string | null): string[] {
  if (!chain) return [];
  try {
    const parsed: unknown = JSON.parse(chain);
    if (Array.isArray(parsed)) {
      return parsed.map((hop) =>
        typeof hop === 'string'
          ? hop
          : typeof hop === 'object' && hop !== null && 'url' in hop
            ? `${(hop as { status?: number }).status ?? ''} ${(hop as { url: string }).url}`.trim()
            : JSON.stringify(hop),
      );
    }
  } catch {}
  return chain
    .split(/\s*(?:->|→|\n)\s*/)
    .map((h) => h.trim())
    .filter(Boolean);
}
