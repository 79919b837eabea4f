import { CAUSES } from '@/lib/notify/message';
import { DAY_MS } from '@/lib/uptime/rollup';
import { MAINTENANCE_STYLE, maintenanceSection } from './maintenance';
import {
  clockLabel,
  cspHash,
  dayLabel,
  dayMonthLabel,
  durationLabel,
  escapeXml as e,
  pctLabel,
  timeTag,
} from './markup';
import type {
  OverallStatus,
  PublicIncident,
  PublicMonitor,
  PublicMonitorStatus,
  PublicStatus,
} from './public';

/*
 * The public status page as one HTML document, written here rather than by React: it must work
 * without JavaScript and under a policy that allows no script at all, so there is nothing to
 * hydrate, and a string is the cheapest thing to cache and serve. Every value is escaped (`e`).
 * The day bars show their figure on hover and on keyboard focus with CSS alone: each day is a
 * focusable list item whose text (date, uptime, incidents) is its accessible name, visually hidden
 * until the item is hovered or focused.
 */

export const OVERALL_WORDS: Record<OverallStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Maintenance under way',
  unknown: 'Status unknown',
};

export const MONITOR_WORDS: Record<PublicMonitorStatus, string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'No data yet',
  paused: 'Not monitored',
  maintenance: 'Under maintenance',
};

/** Light by default, dark under prefers-color-scheme; every text colour passes WCAG AA on its background. */
export const STYLE = `
:root{color-scheme:light dark;--bg:#fafafa;--card:#fff;--fg:#18181b;--muted:#52525b;--line:#e4e4e7;
--ok:#15803d;--okbar:#22c55e;--warn:#a16207;--warnbar:#eab308;--bad:#b91c1c;--badbar:#ef4444;--none:#d4d4d8;
--tipbg:#18181b;--tipfg:#fafafa;--focus:#2563eb}
@media (prefers-color-scheme:dark){:root{--bg:#09090b;--card:#18181b;--fg:#f4f4f5;--muted:#a1a1aa;--line:#3f3f46;
--ok:#4ade80;--okbar:#22c55e;--warn:#facc15;--warnbar:#eab308;--bad:#f87171;--badbar:#ef4444;--none:#3f3f46;
--tipbg:#f4f4f5;--tipfg:#18181b;--focus:#60a5fa}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:inherit}
a:focus-visible,.bars>li:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem 1rem}
.wrap{max-width:56rem;margin:0 auto;padding:2rem 1rem}
header h1{margin:0;font-size:1.75rem;line-height:1.2}
header p{margin:.5rem 0 0;color:var(--muted)}
h2{font-size:1.125rem;margin:2rem 0 .75rem}
.overall{margin-top:1.5rem;padding:1rem 1.25rem;border-radius:.75rem;border:1px solid var(--line);background:var(--card);
border-left:.5rem solid var(--okbar)}
.overall h2{margin:0;font-size:1.25rem}.overall p{margin:.25rem 0 0;color:var(--muted);font-size:.875rem}
.overall.degraded,.overall.partial_outage{border-left-color:var(--warnbar)}.overall.major_outage{border-left-color:var(--badbar)}
.overall.unknown{border-left-color:var(--none)}
.monitors,.incidents,.bars{list-style:none;margin:0;padding:0}
.monitor{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1rem 1.25rem;margin-bottom:.75rem}
.head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.25rem 1rem}
.head h3{margin:0;font-size:1rem;overflow-wrap:anywhere}
.state{font-weight:600;font-size:.875rem}.state.up{color:var(--ok)}.state.degraded{color:var(--warn)}.state.down{color:var(--bad)}
.state.unknown,.state.paused{color:var(--muted)}
.url,.meta{margin:.25rem 0 0;color:var(--muted);font-size:.875rem;overflow-wrap:anywhere}
.bars{display:flex;gap:2px;height:2.25rem;margin-top:.75rem;position:relative}
.bars>li{flex:1 1 0;min-width:0;border-radius:2px;background:var(--okbar);position:relative;cursor:default}
.bars>.minor{background:var(--warnbar)}.bars>.major{background:var(--badbar)}.bars>.none{background:var(--none)}.bars>.maint{background:var(--maintbar)}
.bars span{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.bars>:hover span,.bars>:focus span{width:max-content;max-width:16rem;height:auto;clip-path:none;white-space:pre-line;z-index:1;
bottom:calc(100% + .5rem);left:50%;transform:translateX(-50%);padding:.5rem .75rem;border-radius:.5rem;
background:var(--tipbg);color:var(--tipfg);font-size:.8125rem;line-height:1.4;box-shadow:0 4px 12px rgb(0 0 0/.25)}
.bars>:nth-last-child(-n+15):hover span,.bars>:nth-last-child(-n+15):focus span{left:auto;right:0;transform:none}
.bars>:nth-child(-n+15):hover span,.bars>:nth-child(-n+15):focus span{left:0;right:auto;transform:none}
.axis{display:flex;justify-content:space-between;color:var(--muted);font-size:.75rem;margin-top:.25rem}
.incidents>li{border-top:1px solid var(--line);padding:.75rem 0}
.incidents h3{margin:0;font-size:1rem}.incidents p{margin:.25rem 0 0;color:var(--muted);font-size:.875rem}
.ongoing{color:var(--bad);font-weight:600}
.standing{font-weight:600}
.updates{list-style:none;margin:.5rem 0 0;padding:0 0 0 .75rem;border-left:2px solid var(--line)}
.updates li{margin-top:.5rem}.updates p{margin:.125rem 0 0;color:var(--fg);overflow-wrap:anywhere}
.incidents .said{color:var(--muted)}.said strong{color:var(--fg)}
.subscribe form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.subscribe label{display:block;font-size:.875rem;font-weight:600;margin-bottom:.25rem}
.subscribe input{font:inherit;padding:.5rem .75rem;border:1px solid var(--muted);border-radius:.5rem;background:var(--card);
color:var(--fg);width:18rem;max-width:100%}
button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.5rem;border:0;background:#1d4ed8;color:#fff;cursor:pointer}
input:focus-visible,button:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.note{color:var(--muted);font-size:.875rem}
footer{margin-top:2.5rem;color:var(--muted);font-size:.875rem}
footer a{margin-right:1rem}
@media (max-width:30rem){.bars{gap:1px}.bars>li{border-radius:1px}}
${MAINTENANCE_STYLE}`;

/**
 * The page's policy: no script, no frame, nothing fetched but this one style block, and forms (the
 * subscribe form, the buttons of the subscription pages) posting to this origin only.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src ${cspHash(STYLE)}`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A day's bar colour as its one class: none for no downtime (the bars' own colour, most days), a
 * little (under 1 %, ~14 minutes), more; blue when all of its watched time was maintenance, grey
 * when not watched.
 */
function dayClass(day: PublicMonitor['days'][number]): string {
  const pct = day.uptimePct;
  if (pct === null) return day.maintenanceMs > 0 ? ' class="maint"' : ' class="none"';
  if (pct >= 100) return '';
  return pct >= 99 ? ' class="minor"' : ' class="major"';
}

function incidentWords(incident: PublicIncident): string {
  return incident.cause ? (CAUSES[incident.cause] ?? incident.cause) : 'outage';
}

/** An incident's name on the page: a manual one's title, a monitor's name and cause. */
export function incidentName(incident: PublicIncident): string {
  if (incident.kind === 'manual' || !incident.monitor) return incident.title ?? 'Incident';
  return `${incident.monitor.name}: ${incidentWords(incident)}`;
}

export const UPDATE_WORDS: Record<NonNullable<PublicIncident['status']>, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export const IMPACT_WORDS: Record<NonNullable<PublicIncident['impact']>, string> = {
  none: 'No impact on service',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

/**
 * One day of a bar: a focusable list item whose text is the day's, shown as its tooltip (lines
 * kept by `white-space: pre-line`, read as one name). Only what the day has to say: its date (the
 * year is in the list's name), its figure, and when it had incidents, how many, how long, and the
 * first three by time and cause. A day at 100 % says only its date and "100% uptime" in a bare list
 * item: such days are most of the page (326 of the bench's 450), where each was 115 bytes.
 */
function dayBar(monitor: PublicMonitor, day: PublicMonitor['days'][number], incidents: PublicIncident[]) {
  const lines = [dayMonthLabel(day.dayStart)];
  if (day.uptimePct === null) lines.push(day.maintenanceMs > 0 ? 'Maintenance' : 'Not monitored');
  else {
    lines.push(`${day.uptimePct >= 100 ? '100%' : pctLabel(day.uptimePct)} uptime`);
    if (day.maintenanceMs > 0) lines.push(`${durationLabel(day.maintenanceMs)} of maintenance`);
    if (day.incidents > 0) {
      lines.push(
        `${day.incidents} incident${day.incidents === 1 ? '' : 's'}, ${durationLabel(day.downMs)} down`,
      );
      const end = day.dayStart + DAY_MS;
      const touching = incidents.filter(
        (i) =>
          i.monitor?.position === monitor.position &&
          i.startedAt < end &&
          (i.resolvedAt ?? Number.POSITIVE_INFINITY) > day.dayStart,
      );
      for (const i of touching.slice(0, 3)) {
        lines.push(`${clockLabel(Math.max(i.startedAt, day.dayStart))}: ${incidentWords(i)}`);
      }
    }
  }
  return `<li${dayClass(day)} tabindex="0"><span>${e(lines.join('\n'))}</span></li>`;
}

/** The bar's name: whose, how many days, and the first and last day spelled out (each day says only its day and month). */
function barsName(monitor: PublicMonitor): string {
  const first = monitor.days[0];
  const last = monitor.days.at(-1);
  const span = first && last ? `, ${dayLabel(first.dayStart)} to ${dayLabel(last.dayStart)}` : '';
  return `${monitor.name}: daily uptime, last ${monitor.days.length} days${span}, oldest first`;
}

function monitorCard(monitor: PublicMonitor, incidents: PublicIncident[]): string {
  const facts = [
    monitor.uptimePct === null
      ? 'No uptime figure yet'
      : `${pctLabel(monitor.uptimePct)} uptime over 90 days`,
  ];
  if (monitor.a11yScore !== undefined) {
    facts.push(
      monitor.a11yScore === null
        ? 'Accessibility not scanned yet'
        : `Accessibility score ${monitor.a11yScore}/100`,
    );
  }
  if (monitor.brokenLinks !== undefined) {
    facts.push(
      monitor.brokenLinks === null
        ? 'Links not checked yet'
        : `${monitor.brokenLinks} broken link${monitor.brokenLinks === 1 ? '' : 's'}`,
    );
  }
  const since =
    monitor.since && monitor.status !== 'paused' && monitor.status !== 'maintenance'
      ? ` since ${dayLabel(monitor.since)}, ${clockLabel(monitor.since)}`
      : '';
  return `<li class="monitor">
<div class="head"><h3>${e(monitor.name)}</h3><span class="state ${monitor.status}">${e(MONITOR_WORDS[monitor.status])}<span class="since">${e(since)}</span></span></div>
${monitor.url ? `<p class="url">${e(monitor.url)}</p>` : ''}<p class="meta">${e(facts.join(' · '))}</p>
<ol class="bars" aria-label="${e(barsName(monitor))}">${monitor.days.map((day) => dayBar(monitor, day, incidents)).join('')}</ol>
<div class="axis" aria-hidden="true"><span>${monitor.days.length} days ago</span><span>Today</span></div>
</li>`;
}

/** What the organization posted about an incident, newest first; a message keeps its line breaks. */
function incidentUpdates(incident: PublicIncident): string {
  if (incident.updates.length === 0) return '';
  const items = incident.updates.map(
    (u) =>
      `<li><p class="said"><strong>${e(UPDATE_WORDS[u.status])}</strong> · ${timeTag(u.at)}</p>${u.message
        .split(/\n{2,}/)
        .map((para) => `<p>${e(para).replace(/\n/g, '<br>')}</p>`)
        .join('')}</li>`,
  );
  return `<ol class="updates" aria-label="${e(`Updates on ${incidentName(incident)}, newest first`)}">${items.join('')}</ol>`;
}

/** Where an incident stands, in words: its latest update's status, and a manual incident's impact. */
function incidentStanding(incident: PublicIncident): string {
  const parts: string[] = [];
  if (incident.status && incident.status !== 'resolved') parts.push(UPDATE_WORDS[incident.status]);
  if (incident.impact && incident.resolvedAt === null) parts.push(IMPACT_WORDS[incident.impact]);
  return parts.length ? `<p class="standing">${e(parts.join(' · '))}</p>` : '';
}

function incidentItem(incident: PublicIncident, at: number): string {
  const end = incident.resolvedAt;
  const when = `Started ${timeTag(incident.startedAt)}`;
  const outcome =
    end === null
      ? `<span class="ongoing">Ongoing</span> (${e(durationLabel(at - incident.startedAt))} so far)`
      : `resolved ${timeTag(end, incident.startedAt)} after ${e(durationLabel(end - incident.startedAt))}`;
  return `<li id="incident-${e(incident.id)}"><h3>${e(incidentName(incident))}</h3>${incidentStanding(incident)}<p>${when} · ${outcome}</p>${incidentUpdates(incident)}</li>`;
}

/**
 * The no-script subscribe form: a form-encoded POST to /status/{slug}/subscribe on this origin (the
 * policy's form-action), answered by a page of its own (lib/api/public-subscribe.ts). The page is the
 * same for every visitor and cached as such: the form carries nothing of anyone.
 */
export function subscribeSection(base: string, problem?: string): string {
  const invalid = problem ? ` aria-invalid="true" aria-describedby="email-problem"` : '';
  return `<section id="subscribe" class="subscribe" aria-labelledby="subscribe-heading"><h2 id="subscribe-heading">Get updates by email</h2>
<p class="note">We mail you when an incident is opened, updated or resolved, and when maintenance is scheduled. You confirm your address first; every mail has a link to unsubscribe.</p>
<form method="post" action="${base}/subscribe"><div><label for="email">Email address</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email"${invalid}></div>
<button type="submit">Subscribe</button></form>${problem ? `<p id="email-problem" class="note"><strong>${e(problem)}</strong></p>` : ''}</section>`;
}

/**
 * The whole document. It states no "as of" time: it is served from the cache for as long as nothing
 * on it changes (lib/statuspages/fingerprint.ts), so the render time would only mislead.
 */
export function renderStatusHtml(status: PublicStatus): string {
  const base = `/status/${encodeURIComponent(status.page.slug)}`;
  const incidents = status.incidents;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(`${status.page.title}: status`)}</title><meta name="color-scheme" content="light dark">
<meta name="robots" content="noarchive">
<link rel="alternate" type="application/atom+xml" title="${e(`${status.page.title}: incidents`)}" href="${base}/feed.atom">
<style>${STYLE}</style></head>
<body><a class="skip" href="#incidents">Skip to incidents</a>
<div class="wrap"><header><h1>${e(status.page.title)}</h1>${status.page.description ? `<p>${e(status.page.description)}</p>` : ''}</header>
<main id="main">
<section class="overall ${status.status}" aria-labelledby="overall"><h2 id="overall">${e(OVERALL_WORDS[status.status])}</h2>
<p>Checked every minute from four regions. Times are UTC.</p></section>
${maintenanceSection(status)}
<section aria-labelledby="services"><h2 id="services">Services</h2>
${status.monitors.length ? `<ul class="monitors">${status.monitors.map((m) => monitorCard(m, incidents)).join('')}</ul>` : '<p>No services listed.</p>'}
</section>
<section id="incidents" aria-labelledby="incidents-heading"><h2 id="incidents-heading">Incidents, last 90 days</h2>
${incidents.length ? `<ol class="incidents">${incidents.map((i) => incidentItem(i, status.at)).join('')}</ol>` : '<p>No incidents in the last 90 days.</p>'}
</section>
${subscribeSection(base)}</main>
<footer><a href="${base}/feed.atom">Atom feed</a><a href="${base}/summary.json">JSON</a><a href="${base}/badge.svg">Badge</a>
<p>Status page by Sitewatch.</p></footer></div></body></html>`;
}
