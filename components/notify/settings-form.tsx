'use client';

import { useId, useState } from 'react';
import type { MemberView, NotificationSettings } from '@/components/api/types';
import { onInvalid, useFormSubmit } from '@/components/api/use-form-submit';
import { Button } from '@/components/ui/button';
import { ErrorSummary, type SummaryError } from '@/components/ui/error-summary';
import { CheckboxField, SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/surface';
import { WEBHOOK_KIND_LABELS } from '@/components/uptime/words';
import type { RecipientList, WebhookList } from '@/lib/notify/kinds';
import { MAX_RECIPIENTS, MAX_WEBHOOKS } from '@/lib/notify/limits';
import { WEBHOOK_KINDS, type WebhookKind } from '@/lib/notify/webhook';
import {
  bodyOf,
  checkDraft,
  draftOf,
  emailLines,
  fieldLabel,
  fieldOfApiError,
  GROUPS,
  receivesNobody,
  type SettingsDraft,
  type SettingsField,
  type WebhookDraft,
} from './settings-draft';
import { TestEmail } from './test-email';
import { TestStatus, useTestSends } from './test-send';

/**
 * The receivers of one scope (the org defaults or a site override), grouped by what they are told
 * about: members ticked and addresses typed per recipient list, webhook rows with a "Send test" that
 * says inline why a delivery failed (the API's 502), and a test email to any of the addresses. The
 * spec's limits are checked here first (errors under each list and in a summary that takes focus),
 * then by the API, whose "field: message" answers land under the same lists.
 */
export function NotificationSettingsForm({
  settings,
  members,
  site,
  label,
  onSave,
}: {
  settings: NotificationSettings;
  /** The organization's members, to pick from; undefined while loading. */
  members: MemberView[] | undefined;
  /** A site override: shows "also notify the organization's defaults". */
  site?: boolean;
  label: string;
  onSave: (body: Record<string, unknown>) => Promise<NotificationSettings>;
}) {
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(settings));
  // What is saved, not what is being typed: the warnings say what delivery would do now.
  const [stored, setStored] = useState(settings);
  const form = useFormSubmit<SettingsField, NotificationSettings>({
    check: () => checkDraft(draft),
    send: () => onSave(bodyOf(draft, Boolean(site))),
    fieldOf: onInvalid(fieldOfApiError),
    fallback: 'Could not save the notification settings.',
    onSaved: (next) => {
      setDraft(draftOf(next));
      setStored(next);
      return 'Saved. The next notification goes to these receivers.';
    },
  });
  const { errors, setErrors, problem } = form;
  const prefix = useId();
  const idOf = (field: SettingsField | string) => `${prefix}-${field.replace('.', '-')}`;

  function change(update: (d: SettingsDraft) => SettingsDraft) {
    form.setSaved('');
    setDraft(update);
  }

  const fieldError = (field: SettingsField) =>
    errors[field] ? `${fieldLabel(field)} ${errors[field]}` : null;
  // Editing a list clears its error by setting it to undefined: only fields still in error are listed.
  const listed: SummaryError[] = (Object.keys(errors) as SettingsField[]).flatMap((field) => {
    const text = fieldError(field);
    return text ? [{ fieldId: idOf(field.endsWith('Webhooks') ? `${field}-add` : field), text }] : [];
  });

  return (
    <form onSubmit={form.submit} noValidate aria-label={label} className="space-y-6">
      <ErrorSummary
        ref={form.summary}
        title={problem ? 'The settings were not saved' : 'There is a problem'}
        errors={listed}
      >
        {problem?.message}
      </ErrorSummary>

      {site ? (
        <CheckboxField
          label="Also notify the organization's default receivers"
          hint="Off: only the receivers below hear about this site."
          checked={draft.includeOrgDefaults}
          onChange={(e) => {
            const on = e.target.checked;
            change((d) => ({ ...d, includeOrgDefaults: on }));
          }}
        />
      ) : null}

      {GROUPS.map((group) => (
        <fieldset key={group.id} className="space-y-4 rounded-lg border border-zinc-200 px-4 pt-2 pb-4">
          <legend className="px-1 text-sm font-semibold text-zinc-900">{group.title}</legend>
          <p className="-mt-2 text-xs text-zinc-600">{group.description}</p>
          {/* A site override that adds the defaults may still reach someone: only a scope that stands alone warns. */}
          {(!site || !stored.includeOrgDefaults) && receivesNobody(stored, group) ? (
            <Alert tone="warning" title={`Nobody receives ${group.title.toLowerCase()}`}>
              {group.nobody}
              {site ? ' ' : ' Sites without their own settings use these defaults. '}
              Tick a member or add an address{group.webhooks ? ' or a webhook' : ''} below, then save.
            </Alert>
          ) : null}
          <RecipientPicker
            idOf={idOf}
            list={group.recipients}
            draft={draft}
            members={members}
            error={fieldError(group.recipients)}
            onChange={(value) =>
              change((d) => ({ ...d, recipients: { ...d.recipients, [group.recipients]: value } }))
            }
          />
          {group.webhooks ? (
            <WebhookRows
              idOf={idOf}
              list={group.webhooks}
              hooks={draft.webhooks[group.webhooks]}
              fieldError={fieldError}
              onChange={(hooks) => {
                const list = group.webhooks as WebhookList;
                setErrors((e) => ({ ...e, [list]: undefined }));
                change((d) => ({ ...d, webhooks: { ...d.webhooks, [list]: hooks } }));
              }}
            />
          ) : null}
        </fieldset>
      ))}

      <TestEmail draft={draft} members={members} />

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" pending={form.pending}>
          Save notification settings
        </Button>
        <p role="status" className="text-sm text-green-800">
          {form.saved}
        </p>
      </div>
    </form>
  );
}

function RecipientPicker({
  idOf,
  list,
  draft,
  members,
  error,
  onChange,
}: {
  idOf: (field: string) => string;
  list: RecipientList;
  draft: SettingsDraft;
  members: MemberView[] | undefined;
  error: string | null;
  onChange: (value: SettingsDraft['recipients'][RecipientList]) => void;
}) {
  const value = draft.recipients[list];
  const ticked = new Set(value.userIds);
  const known = new Set((members ?? []).map((m) => m.userId));
  const gone = value.userIds.filter((id) => !known.has(id));
  const count = value.userIds.length + emailLines(value.emails).length;
  const toggle = (userId: string, on: boolean) =>
    onChange({
      ...value,
      userIds: on ? [...value.userIds, userId] : value.userIds.filter((id) => id !== userId),
    });
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">Members</legend>
        {members === undefined ? (
          <p className="mt-1 text-xs text-zinc-600">Loading members…</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {members.map((m) => (
              <li key={m.userId}>
                <CheckboxField
                  label={m.name || m.email}
                  hint={m.name ? m.email : undefined}
                  checked={ticked.has(m.userId)}
                  onChange={(e) => toggle(m.userId, e.target.checked)}
                />
              </li>
            ))}
            {members !== undefined
              ? gone.map((userId) => (
                  <li key={userId}>
                    <CheckboxField
                      label="A former member"
                      hint="No longer in the organization: nothing is sent to them. Untick to remove."
                      checked
                      onChange={(e) => toggle(userId, e.target.checked)}
                    />
                  </li>
                ))
              : null}
          </ul>
        )}
      </fieldset>
      <TextAreaField
        id={idOf(list)}
        label="Other addresses"
        rows={3}
        value={value.emails}
        onChange={(e) => onChange({ ...value, emails: e.target.value })}
        hint={`One per line. ${count} of ${MAX_RECIPIENTS} recipients, members included.`}
        error={error}
      />
    </div>
  );
}

function WebhookRows({
  idOf,
  list,
  hooks,
  fieldError,
  onChange,
}: {
  idOf: (field: string) => string;
  list: WebhookList;
  hooks: WebhookDraft[];
  fieldError: (field: SettingsField) => string | null;
  onChange: (hooks: WebhookDraft[]) => void;
}) {
  const { tests, run, forget } = useTestSends<number>();
  const addId = idOf(`${list}-add`);
  const setHook = (index: number, change: Partial<WebhookDraft>) => {
    forget(index);
    onChange(hooks.map((h, i) => (i === index ? { ...h, ...change } : h)));
  };

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-zinc-800">Webhooks</legend>
      {hooks.length > 0 ? (
        <ol className="space-y-4">
          {hooks.map((hook, i) => {
            const test = tests[i];
            const field = `${list}.${i}` as SettingsField;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              <li key={i} className="space-y-2">
                <div className="grid items-start gap-3 sm:grid-cols-[12rem_1fr]">
                  <SelectField
                    label={`Webhook ${i + 1} kind`}
                    value={hook.kind}
                    onChange={(e) => setHook(i, { kind: e.target.value as WebhookKind })}
                  >
                    {WEBHOOK_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {WEBHOOK_KIND_LABELS[kind]}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    id={idOf(field)}
                    label={`Webhook ${i + 1} URL`}
                    type="url"
                    inputMode="url"
                    value={hook.url}
                    onChange={(e) => setHook(i, { url: e.target.value })}
                    error={fieldError(field)}
                  />
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <Button
                    size="sm"
                    pending={test?.state === 'sending'}
                    disabled={hook.url.trim() === ''}
                    onClick={() => void run(i, { webhook: { kind: hook.kind, url: hook.url.trim() } })}
                  >
                    Send test<span className="sr-only"> to webhook {i + 1}</span>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => {
                      forget();
                      onChange(hooks.filter((_, j) => j !== i));
                      document.getElementById(addId)?.focus();
                    }}
                  >
                    Remove<span className="sr-only"> webhook {i + 1}</span>
                  </Button>
                  <TestStatus test={test} delivered="Test delivered: the receiver accepted it." />
                </div>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-xs text-zinc-600">No webhooks.</p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          id={addId}
          size="sm"
          disabled={hooks.length >= MAX_WEBHOOKS}
          onClick={() => {
            onChange([...hooks, { kind: 'slack', url: '' }]);
            requestAnimationFrame(() => document.getElementById(idOf(`${list}.${hooks.length}`))?.focus());
          }}
        >
          Add webhook
        </Button>
        <span className="text-xs text-zinc-600">
          {hooks.length} of {MAX_WEBHOOKS}
        </span>
      </div>
      {fieldError(list) ? <p className="text-xs font-medium text-red-700">{fieldError(list)}</p> : null}
    </fieldset>
  );
}
