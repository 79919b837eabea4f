import { escapeXml as e } from './markup';
import type { OverallStatus, PublicStatus } from './public';

/*
 * The embeddable status badge: a flat two-part SVG ("status | operational") for a README or a
 * site footer. Shapes and text only: no script, no style element, no external reference, so it is
 * safe wherever it is embedded and under the strictest policy.
 */

const BADGE: Record<OverallStatus, { words: string; colour: string }> = {
  operational: { words: 'operational', colour: '#15803d' },
  degraded: { words: 'degraded', colour: '#a16207' },
  partial_outage: { words: 'partial outage', colour: '#c2410c' },
  major_outage: { words: 'major outage', colour: '#b91c1c' },
  maintenance: { words: 'maintenance', colour: '#1d4ed8' },
  unknown: { words: 'unknown', colour: '#52525b' },
};

/** Verdana 11px averages about 6.5 px a character: close enough for a badge's padding. */
const width = (text: string) => Math.round(text.length * 6.5 + 12);

export function renderBadge(status: PublicStatus): string {
  const label = 'status';
  const { words, colour } = BADGE[status.status];
  const left = width(label);
  const right = width(words);
  const total = left + right;
  const title = `${status.page.title}: ${words}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${e(title)}" viewBox="0 0 ${total} 20">
<title>${e(title)}</title>
<rect width="${left}" height="20" rx="3" fill="#3f3f46"/>
<rect x="${left}" width="${right}" height="20" rx="3" fill="${colour}"/>
<rect x="${left}" width="4" height="20" fill="${colour}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${left / 2}" y="14">${label}</text>
<text x="${left + right / 2}" y="14">${e(words)}</text>
</g>
</svg>
`;
}
