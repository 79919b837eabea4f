import { mailOrganizationName } from '@/lib/orgs/name';
import {
  type AllowanceReachedPayload,
  type CrawlSummaryPayload,
  HTTP_EVENT_TYPES,
  type NotificationKind,
  type StoredPayloads,
} from './kinds';

/**
 * One notification as every format renders it: what happened in a title and a sentence, the figures
 * as label/value facts, and the page of the dashboard to open. Each format (email, Slack, Discord,
 * Teams, http) is a view of this, so a kind is worded once.
 */
export interface Message {
  kind: NotificationKind | 'test';
  /** The http webhook body's `type`. */
  type: string;
  /** The event's id (the same for every receiver of the event). */
  eventId: string;
  /** When it happened, epoch ms. */
  occurredAt: number;
  title: string;
  summary: string;
  tone: 'alert' | 'warning' | 'success' | 'info';
  facts: { label: string; value: string }[];
  link: { url: string; label: string };
  organizationName: string;
  /** The http webhook body's `data`: the event's own fields, without other receivers' addresses. */
  data: Record<string, unknown>;
  /** Why the receiver gets it, where the mail says so; absent: the organization's settings chose them. */
  footer?: string;
}

/** The tone in a word, where a format shows it as text (email, Teams). */
export const TONE_WORDS: Record<Message['tone'], string> = {
  alert: 'Alert',
  warning: 'Warning',
  success: 'Resolved',
  info: 'Update',
};

export interface MessageContext {
  eventId: string;
  occurredAt: number;
  appUrl: string;
  organizationName: string;
  site: { id: string; hostname: string } | null;
}

const REGION_NAMES: Record<string, string> = {
  na: 'North America',
  eu: 'Europe',
  as: 'Asia',
  oc: 'Oceania',
};

/** An incident's cause in words, for alerts and the public status page alike. */
export const CAUSES: Record<string, string> = {
  dns: 'DNS lookup failed',
  tls: 'TLS error',
  timeout: 'timed out',
  http_5xx: 'server error (5xx)',
  http_4xx: 'client error (4xx)',
  expectation: 'unexpected answer',
  redirect: 'redirect error',
  network: 'network error',
  missed_heartbeat: 'missed heartbeat',
};

/** `2026-11-24 09:05 UTC`: one unambiguous form for every receiver, whatever their time zone. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Fields that name other receivers never go out in a message. */
function publicData(payload: object): Record<string, unknown> {
  const { alertEmails: _emails, alertWebhooks: _webhooks, ...rest }: Record<string, unknown> = { ...payload };
  return rest;
}

type Draft = Pick<Message, 'title' | 'summary' | 'tone' | 'facts' | 'footer'> & {
  path: string;
  linkLabel: string;
};
/** What a message is made for: a notification's kind, or a test send. */
type MessageKind = keyof StoredPayloads;

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function monitorLabel(p: { monitorName?: string | null; url?: string | null }): string {
  return str(p.monitorName) ?? str(p.url) ?? 'a monitor';
}

/** A heartbeat's outage: its job stopped pinging (no URL, no probes, no regions to name). */
function heartbeatDown(
  p: StoredPayloads['uptime-down'],
  name: string,
  site: string,
  sitePath: string,
): Draft {
  const lastPing = num(p.lastPingAt);
  return {
    title: `Down: ${name}`,
    summary: `${name} on ${site} missed its heartbeat: ${lastPing === null ? 'no ping has arrived yet' : `no ping since ${formatTime(lastPing)}`}.`,
    tone: 'alert',
    facts: [
      { label: 'Monitor', value: name },
      { label: 'Cause', value: [CAUSES.missed_heartbeat, str(p.detail)].filter(Boolean).join(': ') },
      { label: 'Last ping', value: lastPing === null ? 'none yet' : formatTime(lastPing) },
      { label: 'Down since', value: num(p.downAt) === null ? '' : formatTime(p.downAt as number) },
    ],
    path: p.monitorId ? `${sitePath}/uptime/${p.monitorId}` : `${sitePath}/uptime`,
    linkLabel: 'Open the monitor',
  };
}

function uptimeDown(p: StoredPayloads['uptime-down'], site: string, sitePath: string): Draft {
  const name = monitorLabel(p);
  if (p.monitorKind === 'heartbeat') return heartbeatDown(p, name, site, sitePath);
  const cause = p.cause ? (CAUSES[p.cause] ?? p.cause) : null;
  // From one server there are no regions to name (lib/uptime probeLocations): say where it was seen.
  const oneServer = p.probedFrom === 'server';
  const regions = (Array.isArray(p.failingRegions) ? p.failingRegions : []).map((r) => REGION_NAMES[r] ?? r);
  const facts = [
    { label: 'Monitor', value: name },
    { label: 'URL', value: str(p.url) ?? '' },
    { label: 'Cause', value: [cause, str(p.detail)].filter(Boolean).join(': ') },
    oneServer
      ? { label: 'Checked from', value: 'this Sitewatch server (one location)' }
      : { label: 'Failing regions', value: regions.join(', ') },
    { label: 'Down since', value: num(p.downAt) === null ? '' : formatTime(p.downAt as number) },
  ];
  const confirmed = oneServer
    ? 'confirmed by several probes from this Sitewatch server (one location)'
    : `confirmed from ${regions.length > 1 ? `${regions.length} regions` : 'several regions'}`;
  return {
    title: `Down: ${name}`,
    summary: `${name} on ${site} is down${cause ? ` (${cause})` : ''}, ${confirmed}.`,
    tone: 'alert',
    facts,
    path: p.monitorId ? `${sitePath}/uptime/${p.monitorId}` : `${sitePath}/uptime`,
    linkLabel: 'Open the monitor',
  };
}

function uptimeRecovered(p: StoredPayloads['uptime-recovered'], site: string, sitePath: string): Draft {
  const name = monitorLabel(p);
  const down = num(p.downAt);
  const up = num(p.recoveredAt);
  const downtime = down !== null && up !== null ? formatDuration(up - down) : null;
  return {
    title: `Recovered: ${name}`,
    summary: `${name} on ${site} is back up${downtime ? ` after ${downtime} of downtime` : ''}.`,
    tone: 'success',
    facts: [
      { label: 'Monitor', value: name },
      { label: 'URL', value: str(p.url) ?? '' },
      { label: 'Down since', value: down === null ? '' : formatTime(down) },
      { label: 'Recovered at', value: up === null ? '' : formatTime(up) },
      { label: 'Downtime', value: downtime ?? '' },
      { label: 'Cause', value: p.cause ? (CAUSES[p.cause] ?? p.cause) : '' },
    ],
    path: p.monitorId ? `${sitePath}/uptime/${p.monitorId}` : `${sitePath}/uptime`,
    linkLabel: 'Open the monitor',
  };
}

function certificateExpiring(
  p: StoredPayloads['certificate-expiring'],
  site: string,
  sitePath: string,
): Draft {
  const expires = num(p.expiresAt);
  const days = num(p.days);
  const host = (() => {
    try {
      return new URL(str(p.url) ?? '').hostname;
    } catch {
      return site;
    }
  })();
  return {
    title: `Certificate of ${host} expires${days === null ? ' soon' : ` within ${count(days, 'day')}`}`,
    summary: `The TLS certificate served at ${str(p.url) ?? host} expires${expires === null ? ' soon' : ` on ${formatTime(expires)}`}. Renew it before visitors see a security warning and the monitor goes down.`,
    tone: 'warning',
    facts: [
      { label: 'Monitor', value: monitorLabel(p) },
      { label: 'Expires', value: expires === null ? '' : formatTime(expires) },
    ],
    path: p.monitorId ? `${sitePath}/uptime/${p.monitorId}` : `${sitePath}/uptime`,
    linkLabel: 'Open the monitor',
  };
}

function domainExpiring(p: StoredPayloads['domain-expiring'], site: string, sitePath: string): Draft {
  const expires = num(p.expiresAt);
  const days = num(p.days);
  const domain = str(p.domain) ?? site;
  return {
    title: `Domain ${domain} expires${days === null ? ' soon' : ` within ${count(days, 'day')}`}`,
    summary: `The registration of ${domain}, the domain of ${monitorLabel(p)}, expires${expires === null ? ' soon' : ` on ${formatTime(expires)}`}, as its registry's RDAP server says. Renew it with the registrar before the site, its mail and its certificates stop working.`,
    tone: 'warning',
    facts: [
      { label: 'Monitor', value: monitorLabel(p) },
      { label: 'Domain', value: domain },
      { label: 'Expires', value: expires === null ? '' : formatTime(expires) },
    ],
    path: p.monitorId ? `${sitePath}/uptime/${p.monitorId}` : `${sitePath}/uptime`,
    linkLabel: 'Open the monitor',
  };
}

function crawlSummary(p: StoredPayloads['crawl-summary'], site: string, sitePath: string): Draft {
  const broken = num(p.brokenCount);
  if (p.state === 'failed') {
    return {
      title: `Crawl failed: ${site}`,
      summary: `The crawl of ${site} failed: ${str(p.error) ?? 'no reason recorded'}.`,
      tone: 'alert',
      facts: [
        { label: 'Started', value: num(p.startedAt) === null ? '' : formatTime(p.startedAt as number) },
      ],
      path: sitePath,
      linkLabel: 'Open the site',
    };
  }
  const a11y = p.a11y && typeof p.a11y === 'object' ? p.a11y : null;
  const facts = [
    { label: 'Pages crawled', value: num(p.pagesCrawled)?.toLocaleString('en-US') ?? '' },
    { label: 'Links checked', value: num(p.linksChecked)?.toLocaleString('en-US') ?? '' },
    {
      label: 'Broken links',
      value:
        broken === null
          ? ''
          : `${broken.toLocaleString('en-US')}${
              num(p.internalBroken) !== null && num(p.externalBroken) !== null
                ? ` (${p.internalBroken} internal, ${p.externalBroken} external)`
                : ''
            }`,
    },
    {
      label: 'SEO score',
      value:
        num(p.seoScore) === null
          ? ''
          : `${p.seoScore}/100${num(p.seoIssueCount) === null ? '' : `, ${count(p.seoIssueCount as number, 'issue')}`}`,
    },
    { label: 'Accessibility score', value: a11y && num(a11y.score) !== null ? `${a11y.score}/100` : '' },
    {
      label: 'Accessibility violations',
      value: a11y
        ? `${a11y.critical} critical, ${a11y.serious} serious, ${a11y.moderate} moderate, ${a11y.minor} minor on ${count(a11y.pagesScanned, 'page')}`
        : '',
    },
    { label: 'Cut short', value: (Array.isArray(p.limitsHit) ? p.limitsHit : []).join('; ') },
  ];
  facts.push({ label: 'Since the last crawl', value: changesSentence(p.changes) });
  const crawled = count(num(p.pagesCrawled) ?? 0, 'page');
  // The pages that hold the broken links, not the pages crawled ("9 broken links on 32 pages" when
  // they were on 7); a summary queued before the count was sent says only how many were crawled.
  const holding = num(p.pagesWithBroken);
  const headline =
    broken === null
      ? `finished: ${crawled} crawled`
      : broken === 0
        ? `found no broken links on ${crawled}`
        : holding === null
          ? `found ${count(broken, 'broken link')} (${crawled} crawled)`
          : `found ${count(broken, 'broken link')} on ${count(holding, 'page')} (${crawled} crawled)`;
  return {
    title: `Crawl of ${site}: ${broken === null ? 'finished' : count(broken, 'broken link')}`,
    summary: `The crawl of ${site} ${headline}.`,
    tone: broken ? 'warning' : 'info',
    facts,
    path: broken ? `${sitePath}/links` : sitePath,
    linkLabel: broken ? 'See the broken links' : 'Open the site',
  };
}

/** "2 new broken links, 1 fixed; 3 SEO issues fixed; accessibility results changed", or the first crawl. */
function changesSentence(changes: CrawlSummaryPayload['changes']): string {
  if (!changes || typeof changes !== 'object') return '';
  if (changes.previousRunId === null) return 'the first completed crawl of this site';
  const pair = (added: number, fixed: number, what: string) => {
    if (added === 0 && fixed === 0) return null;
    if (fixed === 0) return `${count(added, `new ${what}`, `new ${what}s`)}`;
    if (added === 0) return `${count(fixed, what)} fixed`;
    return `${count(added, `new ${what}`, `new ${what}s`)}, ${fixed.toLocaleString('en-US')} fixed`;
  };
  return [
    pair(changes.brokenNew, changes.brokenFixed, 'broken link'),
    pair(changes.seoNew, changes.seoFixed, 'SEO issue'),
    changes.a11yChanged ? 'accessibility results changed' : null,
  ]
    .filter(Boolean)
    .join('; ');
}

const APP_NAMES: Record<string, string> = { crawl: 'pages crawled', a11y: 'pages rendered' };

function allowanceReached(
  p: StoredPayloads['allowance-reached'],
  site: string,
  _sitePath: string,
  organizationName: string,
): Draft {
  if (p.app === 'monitors') return monitorsHeld(p, organizationName);
  const what = APP_NAMES[p.app ?? ''] ?? `${p.app ?? 'usage'}`;
  const paused = p.app === 'a11y' ? 'Accessibility scans are' : 'Crawling is';
  return {
    title: `${site} used its monthly allowance of ${what}`,
    summary: `${site} used ${num(p.used)?.toLocaleString('en-US') ?? 'all'} of its ${num(p.allowance)?.toLocaleString('en-US') ?? ''} ${what} in ${p.period ?? 'this period'}. ${paused} paused until the next month; turn overage billing on to continue now.`,
    tone: 'warning',
    facts: [
      { label: 'Period', value: str(p.period) ?? '' },
      { label: 'Used', value: num(p.used)?.toLocaleString('en-US') ?? '' },
      { label: 'Allowance', value: num(p.allowance)?.toLocaleString('en-US') ?? '' },
    ],
    path: '/billing',
    linkLabel: 'Open billing',
  };
}

/** The organization's pooled monitor allowance (lib/billing/monitors.ts): no site, no period to wait out. */
function monitorsHeld(p: Partial<AllowanceReachedPayload>, organizationName: string): Draft {
  const held = num(p.held) ?? 0;
  const monitors = (n: number) => `${n.toLocaleString('en-US')} uptime monitor${n === 1 ? '' : 's'}`;
  return {
    title: `${organizationName} has more uptime monitors than its allowance`,
    summary: `${organizationName} has ${monitors(num(p.used) ?? 0)} and an allowance of ${num(p.allowance)?.toLocaleString('en-US') ?? ''} with overage billing off, so the newest ${held === 1 ? 'one is' : `${held.toLocaleString('en-US')} are`} not probed. Turn overage billing on, or delete monitors, to probe every one again.`,
    tone: 'warning',
    facts: [
      { label: 'Monitors', value: num(p.used)?.toLocaleString('en-US') ?? '' },
      { label: 'Allowance', value: num(p.allowance)?.toLocaleString('en-US') ?? '' },
      { label: 'Not probed', value: held.toLocaleString('en-US') },
    ],
    path: '/billing',
    linkLabel: 'Open billing',
  };
}

const METRIC_UNITS: Record<string, (v: number) => string> = {
  lcp: (v) => `${(v / 1000).toFixed(2)} s`,
  inp: (v) => `${Math.round(v)} ms`,
  ttfb: (v) => `${Math.round(v)} ms`,
  cls: (v) => v.toFixed(2),
};

function perfRegression(p: StoredPayloads['perf-regression'], site: string, sitePath: string): Draft {
  const failing = (Array.isArray(p.failing) ? p.failing : []).filter((m) => typeof m?.metric === 'string');
  const show = (metric: string, v: number | null | undefined) =>
    v === null || v === undefined ? 'no data' : (METRIC_UNITS[metric.toLowerCase()] ?? String)(v);
  return {
    title: `Core Web Vitals now failing: ${site}`,
    summary: `Real-user Core Web Vitals of ${site} went from pass to fail${failing.length ? ` (${failing.map((m) => m.metric.toUpperCase()).join(', ')} over the bound)` : ''}.`,
    tone: 'alert',
    facts: [
      ...failing.map((m) => ({
        label: `${m.metric.toUpperCase()} (p75)`,
        value: `${show(m.metric, m.before)} → ${show(m.metric, m.after)}${num(m.threshold) === null ? '' : ` (good up to ${show(m.metric, m.threshold)})`}`,
      })),
      { label: 'Devices', value: p.formFactor === 'ALL' ? 'all devices' : (str(p.formFactor) ?? '') },
      { label: '28-day window ending', value: str(p.periodEnd) ?? '' },
    ],
    path: `${sitePath}/performance`,
    linkLabel: 'Open performance',
  };
}

function searchTrafficDrop(p: StoredPayloads['search-traffic-drop'], site: string, sitePath: string): Draft {
  const change = num(p.clicksChangePct);
  const last = p.last7 && typeof p.last7 === 'object' ? p.last7 : null;
  const previous = p.previous7 && typeof p.previous7 === 'object' ? p.previous7 : null;
  const clicks = (week: typeof last) =>
    week && num(week.clicks) !== null ? week.clicks.toLocaleString('en-US') : '?';
  const span = (week: typeof last) => (week ? `${week.from} to ${week.to}` : '');
  return {
    title: `Search clicks dropped${change === null ? '' : ` ${Math.abs(Math.round(change))}%`}: ${site}`,
    summary: `Clicks from Google Search to ${site} fell from ${clicks(previous)} to ${clicks(last)} in a week${last ? ` (${span(last)})` : ''}.`,
    tone: 'warning',
    facts: [
      { label: 'Property', value: str(p.property) ?? '' },
      { label: 'Last 7 days', value: last ? `${clicks(last)} clicks, ${span(last)}` : '' },
      { label: 'The 7 days before', value: previous ? `${clicks(previous)} clicks, ${span(previous)}` : '' },
      { label: 'Change', value: change === null ? '' : `${change > 0 ? '+' : ''}${change}%` },
    ],
    path: `${sitePath}/search`,
    linkLabel: 'Open search traffic',
  };
}

function stakeholderReport(p: StoredPayloads['stakeholder-report'], site: string, sitePath: string): Draft {
  return {
    title: `Monthly report for ${site}: ${p.period ?? ''}`.trim(),
    summary: `The monthly report of ${site} for ${p.period ?? 'last month'} is attached as a PDF: broken links, SEO, accessibility and uptime over the month. It can be downloaded again from the site's page.`,
    tone: 'info',
    facts: [{ label: 'Period', value: str(p.period) ?? '' }],
    path: sitePath,
    linkLabel: 'Open the site',
  };
}

function testDraft(
  _payload: StoredPayloads['test'],
  _site: string,
  _sitePath: string,
  organizationName: string,
): Draft {
  return {
    title: 'Test notification from Sitewatch',
    summary: `This is a test sent from the notification settings of ${organizationName}. If you can read it, delivery to this target works.`,
    tone: 'info',
    facts: [],
    path: '/notifications',
    linkLabel: 'Open notification settings',
  };
}

const STATUS_WORDS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/** Why a status page subscriber gets the mail: they asked for it on the page (no dashboard link). */
const subscriberFooter = (pageTitle: string) =>
  `You receive this because you subscribed to the status page ${pageTitle} and confirmed your address.`;

const pagePath = (slug: unknown, anchor: string) =>
  `/status/${encodeURIComponent(str(slug) ?? '')}${anchor ? `#${anchor}` : ''}`;

/** A status page's incident, for its subscribers: only what the page itself shows. */
function statusIncident(p: StoredPayloads['status-incident']): Draft {
  const page = str(p.pageTitle) ?? 'the status page';
  const name = str(p.name) ?? 'Incident';
  const status = p.status ? (STATUS_WORDS[p.status] ?? p.status) : null;
  const heading =
    p.event === 'resolved'
      ? `Resolved: ${name}`
      : p.event === 'update'
        ? `${status ?? 'Update'}: ${name}`
        : `Incident: ${name}`;
  const summary =
    p.event === 'resolved'
      ? `${name} on ${page} is resolved${num(p.startedAt) !== null && num(p.resolvedAt) !== null ? ` after ${formatDuration((p.resolvedAt as number) - (p.startedAt as number))}` : ''}.`
      : p.event === 'update'
        ? `An update on ${name}, posted on ${page}.`
        : `${page} reports an incident: ${name}.`;
  return {
    title: `${page}: ${heading}`,
    summary,
    tone:
      p.event === 'resolved' || p.status === 'resolved' ? 'success' : p.event === 'opened' ? 'alert' : 'info',
    facts: [
      { label: 'Status', value: status ?? '' },
      { label: 'Message', value: str(p.message) ?? '' },
      { label: 'Started', value: num(p.startedAt) === null ? '' : formatTime(p.startedAt as number) },
      { label: 'Resolved', value: num(p.resolvedAt) === null ? '' : formatTime(p.resolvedAt as number) },
    ],
    path: pagePath(p.slug, str(p.incidentId) ? `incident-${p.incidentId}` : ''),
    linkLabel: 'Open the status page',
    footer: subscriberFooter(page),
  };
}

/** A maintenance window announced on a status page, for its subscribers. */
function statusMaintenance(p: StoredPayloads['status-maintenance']): Draft {
  const page = str(p.pageTitle) ?? 'the status page';
  const title = str(p.title) ?? 'Maintenance';
  const starts = num(p.startsAt);
  const ends = num(p.endsAt);
  const services = (Array.isArray(p.services) ? p.services : []).filter((s) => typeof s === 'string');
  const from = starts === null ? '' : ` from ${formatTime(starts)}`;
  const to = ends === null ? '' : ` to ${formatTime(ends)}`;
  const words: Record<NonNullable<typeof p.event>, [string, string]> = {
    started: [
      'Maintenance under way',
      `Maintenance on ${page} has started${ends === null ? '' : ` and is planned to end ${formatTime(ends)}`}.`,
    ],
    rescheduled: ['Maintenance rescheduled', `Maintenance on ${page} is now planned${from}${to}.`],
    cancelled: [
      'Maintenance cancelled',
      `The maintenance planned on ${page}${from}${to} will not take place.`,
    ],
    ended: ['Maintenance ended', `Maintenance on ${page} has ended.`],
    scheduled: ['Maintenance scheduled', `Maintenance is scheduled on ${page}${from}${to}.`],
  };
  // A payload queued by an earlier release may name no event (or one since renamed): "scheduled".
  const [heading, summary] = words[p.event ?? 'scheduled'] ?? words.scheduled;
  return {
    title: `${page}: ${heading}: ${title}`,
    summary,
    tone: p.event === 'ended' ? 'success' : 'info',
    facts: [
      { label: 'Maintenance', value: title },
      { label: 'Starts', value: starts === null ? '' : formatTime(starts) },
      { label: 'Ends', value: ends === null ? '' : formatTime(ends) },
      { label: 'Services', value: services.join(', ') },
    ],
    path: pagePath(p.slug, ''),
    linkLabel: 'Open the status page',
    footer: subscriberFooter(page),
  };
}

type Drafter<K extends MessageKind> = (
  payload: StoredPayloads[K],
  site: string,
  sitePath: string,
  organizationName: string,
) => Draft;

/** How each kind is worded, each from its own payload. */
const DRAFTS: { [K in MessageKind]: Drafter<K> } = {
  'uptime-down': uptimeDown,
  'uptime-recovered': uptimeRecovered,
  'certificate-expiring': certificateExpiring,
  'domain-expiring': domainExpiring,
  'crawl-summary': crawlSummary,
  'allowance-reached': allowanceReached,
  'perf-regression': perfRegression,
  'search-traffic-drop': searchTrafficDrop,
  'stakeholder-report': stakeholderReport,
  'status-incident': statusIncident,
  'status-maintenance': statusMaintenance,
  test: testDraft,
};

/** The message of one event (or of a test send, kind `test`), from its kind's payload. */
export function buildMessage<K extends MessageKind>(
  kind: K,
  payload: StoredPayloads[K],
  context: MessageContext,
): Message {
  const site =
    context.site?.hostname ?? ('hostname' in payload ? str(payload.hostname) : null) ?? 'your site';
  const sitePath = context.site ? `/sites/${context.site.id}` : '/sites';
  // The name is whatever the organization's creator typed: one plain line, capped, wherever a
  // format shows it (mail, chat messages).
  const organizationName = mailOrganizationName(context.organizationName);
  const draft = DRAFTS[kind](payload, site, sitePath, organizationName);
  const url = `${context.appUrl}${draft.path}`;
  return {
    kind,
    type: HTTP_EVENT_TYPES[kind],
    eventId: context.eventId,
    occurredAt: context.occurredAt,
    title: draft.title,
    summary: draft.summary,
    tone: draft.tone,
    // A fact the payload had no value for is left out rather than shown empty.
    facts: draft.facts.filter((f) => f.value !== ''),
    link: { url, label: draft.linkLabel },
    organizationName,
    ...(draft.footer ? { footer: draft.footer } : {}),
    data: {
      ...publicData(payload),
      // Structured data, never rendered by Sitewatch: the name as the organization wrote it.
      organization: { name: context.organizationName },
      site: context.site,
      dashboardUrl: url,
    },
  };
}
