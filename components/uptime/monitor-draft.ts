import type { UptimeMonitor } from '@/components/api/types';
import { emailLines, isEmailAddress, urlProblem } from '@/components/ui/form-checks';
import type { WebhookKind } from '@/lib/notify/webhook';
import { statusRange } from '@/lib/uptime/expectations';
import {
  DEFAULT_CADENCE_SECONDS,
  DEFAULT_GRACE_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_ALERT_EMAILS,
  MAX_ALERT_WEBHOOKS,
  MAX_EXPECTED_STATUSES,
  MAX_GRACE_SECONDS,
  MAX_KEYWORD_LENGTH,
  MAX_MONITOR_NAME_LENGTH,
  MAX_PERIOD_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_PERIOD_SECONDS,
  MIN_TIMEOUT_SECONDS,
} from '@/lib/uptime/limits';
import type { MonitorKind } from '@/lib/uptime/types';
import { parseAlertEmails, parseAlertWebhooks } from './words';

/*
 * The monitor form's state and its checks, pure: what the person typed (strings), the spec's limits
 * checked before anything is sent (lib/uptime/limits, the numbers the API enforces), the request
 * body, and the API's "field: message" errors placed under the field they name.
 */

export interface WebhookDraft {
  kind: WebhookKind;
  url: string;
}

export interface MonitorDraft {
  /** Chosen at creation; fixed after. */
  kind: MonitorKind;
  url: string;
  name: string;
  cadenceSeconds: string;
  timeoutSeconds: string;
  /** One address per line. */
  alertEmails: string;
  alertWebhooks: WebhookDraft[];
  /** http: codes and ranges, separated by commas ("200-299, 401"); empty: 2xx and 3xx. */
  expectedStatuses: string;
  keyword: string;
  keywordAbsent: boolean;
  /** heartbeat: whole minutes. */
  periodMinutes: string;
  graceMinutes: string;
}

/** A field the form shows an error under; a webhook row's URL is `alertWebhooks.<index>`. */
export type DraftField =
  | 'url'
  | 'name'
  | 'cadenceSeconds'
  | 'timeoutSeconds'
  | 'alertEmails'
  | 'alertWebhooks'
  | `alertWebhooks.${number}`
  | 'expectedStatuses'
  | 'keyword'
  | 'periodMinutes'
  | 'graceMinutes';
export type DraftErrors = Partial<Record<DraftField, string>>;

export function draftOf(monitor?: UptimeMonitor): MonitorDraft {
  if (!monitor) {
    return {
      kind: 'http',
      url: '',
      name: '',
      cadenceSeconds: String(DEFAULT_CADENCE_SECONDS),
      timeoutSeconds: String(DEFAULT_TIMEOUT_SECONDS),
      alertEmails: '',
      alertWebhooks: [],
      expectedStatuses: '',
      keyword: '',
      keywordAbsent: false,
      periodMinutes: '60',
      graceMinutes: String(DEFAULT_GRACE_SECONDS / 60),
    };
  }
  return {
    kind: monitor.kind,
    url: monitor.url ?? '',
    name: monitor.name ?? '',
    cadenceSeconds: String(monitor.cadence_seconds),
    timeoutSeconds: String(monitor.timeout_seconds),
    alertEmails: parseAlertEmails(monitor.alert_emails).join('\n'),
    alertWebhooks: parseAlertWebhooks(monitor.alert_webhooks),
    expectedStatuses: monitor.expected_statuses.join(', '),
    keyword: monitor.keyword ?? '',
    keywordAbsent: monitor.keyword_absent === 1,
    periodMinutes: String(Math.round((monitor.period_seconds ?? 3600) / 60)),
    graceMinutes: String(Math.round((monitor.grace_seconds ?? DEFAULT_GRACE_SECONDS) / 60)),
  };
}

/** The entries of the expected statuses field: "200-299, 401" -> ["200-299", "401"]. */
const statusEntries = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);

const wholeMinutes = (text: string, min: number, max: number) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
};

/** The spec's limits, checked in the browser: each problem as the words after the field's label. */
export function checkDraft(draft: MonitorDraft): DraftErrors {
  const errors: DraftErrors = {};
  const heartbeat = draft.kind === 'heartbeat';
  const url = heartbeat ? null : urlProblem(draft.url);
  if (url) errors.url = url;
  if (heartbeat) {
    const [minPeriod, maxPeriod] = [MIN_PERIOD_SECONDS / 60, MAX_PERIOD_SECONDS / 60];
    if (!wholeMinutes(draft.periodMinutes, minPeriod, maxPeriod)) {
      errors.periodMinutes = `must be a whole number of minutes from ${minPeriod} to ${maxPeriod} (30 days)`;
    }
    if (!wholeMinutes(draft.graceMinutes, 0, MAX_GRACE_SECONDS / 60)) {
      errors.graceMinutes = `must be a whole number of minutes from 0 to ${MAX_GRACE_SECONDS / 60} (7 days)`;
    }
  } else {
    const entries = statusEntries(draft.expectedStatuses);
    const bad = entries.find((e) => statusRange(e) === null);
    if (bad)
      errors.expectedStatuses = `must be status codes or ranges like 200-299, separated by commas: “${bad}” is not one`;
    else if (entries.length > MAX_EXPECTED_STATUSES)
      errors.expectedStatuses = `must list at most ${MAX_EXPECTED_STATUSES}`;
    if (draft.keyword.length > MAX_KEYWORD_LENGTH) {
      errors.keyword = `must be at most ${MAX_KEYWORD_LENGTH} characters (it has ${draft.keyword.length})`;
    }
  }
  const name = draft.name.trim();
  if (name.length > MAX_MONITOR_NAME_LENGTH) {
    errors.name = `must be at most ${MAX_MONITOR_NAME_LENGTH} characters (it has ${name.length})`;
  }
  const timeout = Number(draft.timeoutSeconds);
  if (
    !heartbeat &&
    (draft.timeoutSeconds.trim() === '' ||
      !Number.isInteger(timeout) ||
      timeout < MIN_TIMEOUT_SECONDS ||
      timeout > MAX_TIMEOUT_SECONDS)
  ) {
    errors.timeoutSeconds = `must be a whole number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}`;
  }
  const emails = emailLines(draft.alertEmails);
  const badEmail = emails.find((e) => !isEmailAddress(e));
  if (emails.length > MAX_ALERT_EMAILS) {
    errors.alertEmails = `must list at most ${MAX_ALERT_EMAILS} addresses (it lists ${emails.length})`;
  } else if (badEmail) {
    errors.alertEmails = `must be email addresses, one per line: “${badEmail}” is not one`;
  }
  if (draft.alertWebhooks.length > MAX_ALERT_WEBHOOKS) {
    errors.alertWebhooks = `must be at most ${MAX_ALERT_WEBHOOKS}`;
  }
  draft.alertWebhooks.forEach((hook, i) => {
    const problem = urlProblem(hook.url);
    if (problem) errors[`alertWebhooks.${i}`] = problem;
  });
  return errors;
}

/**
 * The request body: every field of the monitor's kind (the form shows them all); the kind itself
 * only when creating a heartbeat (http is the default, and the kind cannot be edited).
 */
export function bodyOf(draft: MonitorDraft, creating = true) {
  const common = {
    name: draft.name.trim() || null,
    alertEmails: emailLines(draft.alertEmails),
    alertWebhooks: draft.alertWebhooks.map((h) => ({ kind: h.kind, url: h.url.trim() })),
  };
  if (draft.kind === 'heartbeat') {
    return {
      ...(creating ? { kind: 'heartbeat' as const } : {}),
      ...common,
      periodSeconds: Number(draft.periodMinutes) * 60,
      graceSeconds: Number(draft.graceMinutes) * 60,
    };
  }
  return {
    url: draft.url.trim(),
    ...common,
    cadenceSeconds: Number(draft.cadenceSeconds),
    timeoutSeconds: Number(draft.timeoutSeconds),
    expectedStatuses: statusEntries(draft.expectedStatuses),
    keyword: draft.keyword === '' ? null : draft.keyword,
    keywordAbsent: draft.keywordAbsent,
  };
}

/**
 * The API names the failing field first: "timeoutSeconds: must be at most 30",
 * "alertWebhooks.1.url: ...", "alertEmails.2: must be an email address". Null field: a message for
 * the whole form (allowance, app off, permission).
 */
export function fieldOfApiError(message: string): { field: DraftField | null; text: string } {
  const match = /^([A-Za-z]+)(?:\.(\d+))?(?:\.[A-Za-z]+)?: (.*)$/s.exec(message);
  if (!match) return { field: null, text: message };
  const [, name, index, text = message] = match;
  switch (name) {
    case 'url':
    case 'name':
    case 'cadenceSeconds':
    case 'timeoutSeconds':
      return { field: name, text };
    case 'alertEmails':
      return {
        field: 'alertEmails',
        text: index === undefined ? text : `line ${Number(index) + 1}: ${text}`,
      };
    case 'alertWebhooks':
      return { field: index === undefined ? 'alertWebhooks' : `alertWebhooks.${Number(index)}`, text };
    case 'expectedStatuses':
    case 'keyword':
      return { field: name, text: index === undefined ? text : `entry ${Number(index) + 1}: ${text}` };
    case 'periodSeconds':
      return { field: 'periodMinutes', text: `(in seconds) ${text}` };
    case 'graceSeconds':
      return { field: 'graceMinutes', text: `(in seconds) ${text}` };
    default:
      return { field: null, text: message };
  }
}

/** The label an error is read after ("URL is required"), also the error summary's words. */
export function fieldLabel(field: DraftField): string {
  switch (field) {
    case 'url':
      return 'URL';
    case 'name':
      return 'Name';
    case 'cadenceSeconds':
      return 'Check interval';
    case 'timeoutSeconds':
      return 'Timeout';
    case 'alertEmails':
      return 'Extra alert emails';
    case 'alertWebhooks':
      return 'Extra alert webhooks';
    case 'expectedStatuses':
      return 'Expected status codes';
    case 'keyword':
      return 'Keyword';
    case 'periodMinutes':
      return 'Period';
    case 'graceMinutes':
      return 'Grace';
    default:
      return `Webhook ${Number(field.split('.')[1]) + 1} URL`;
  }
}
