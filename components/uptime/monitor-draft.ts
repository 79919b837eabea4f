import type { UptimeMonitor } from '@/components/api/types';
import { emailLines, isEmailAddress, urlProblem } from '@/components/ui/form-checks';
import type { WebhookKind } from '@/lib/notify/webhook';
import {
  DEFAULT_CADENCE_SECONDS,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_ALERT_EMAILS,
  MAX_ALERT_WEBHOOKS,
  MAX_MONITOR_NAME_LENGTH,
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
} from '@/lib/uptime/limits';
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
  url: string;
  name: string;
  cadenceSeconds: string;
  timeoutSeconds: string;
  /** One address per line. */
  alertEmails: string;
  alertWebhooks: WebhookDraft[];
}

/** A field the form shows an error under; a webhook row's URL is `alertWebhooks.<index>`. */
export type DraftField =
  | 'url'
  | 'name'
  | 'cadenceSeconds'
  | 'timeoutSeconds'
  | 'alertEmails'
  | 'alertWebhooks'
  | `alertWebhooks.${number}`;
export type DraftErrors = Partial<Record<DraftField, string>>;

export function draftOf(monitor?: UptimeMonitor): MonitorDraft {
  if (!monitor) {
    return {
      url: '',
      name: '',
      cadenceSeconds: String(DEFAULT_CADENCE_SECONDS),
      timeoutSeconds: String(DEFAULT_TIMEOUT_SECONDS),
      alertEmails: '',
      alertWebhooks: [],
    };
  }
  return {
    url: monitor.url,
    name: monitor.name ?? '',
    cadenceSeconds: String(monitor.cadence_seconds),
    timeoutSeconds: String(monitor.timeout_seconds),
    alertEmails: parseAlertEmails(monitor.alert_emails).join('\n'),
    alertWebhooks: parseAlertWebhooks(monitor.alert_webhooks),
  };
}

/** The spec's limits, checked in the browser: each problem as the words after the field's label. */
export function checkDraft(draft: MonitorDraft): DraftErrors {
  const errors: DraftErrors = {};
  const url = urlProblem(draft.url);
  if (url) errors.url = url;
  const name = draft.name.trim();
  if (name.length > MAX_MONITOR_NAME_LENGTH) {
    errors.name = `must be at most ${MAX_MONITOR_NAME_LENGTH} characters (it has ${name.length})`;
  }
  const timeout = Number(draft.timeoutSeconds);
  if (
    draft.timeoutSeconds.trim() === '' ||
    !Number.isInteger(timeout) ||
    timeout < MIN_TIMEOUT_SECONDS ||
    timeout > MAX_TIMEOUT_SECONDS
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

/** The request body (create and edit send every field: the form shows them all). */
export function bodyOf(draft: MonitorDraft) {
  return {
    url: draft.url.trim(),
    name: draft.name.trim() || null,
    cadenceSeconds: Number(draft.cadenceSeconds),
    timeoutSeconds: Number(draft.timeoutSeconds),
    alertEmails: emailLines(draft.alertEmails),
    alertWebhooks: draft.alertWebhooks.map((h) => ({ kind: h.kind, url: h.url.trim() })),
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
    default:
      return `Webhook ${Number(field.split('.')[1]) + 1} URL`;
  }
}
