'use client';

import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { A11ySuppressionResponse } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { EditorActions, TextAreaField } from '@/components/ui/field';

type Scope = 'rule' | 'element' | 'occurrence';

/** What a suppression can be made from: a rule, or one example element of it on one page. */
export interface SuppressTarget {
  rule: string;
  selector?: string;
  pageUrl?: string;
}

const scopeLabel: Record<Scope, string> = {
  rule: 'This rule everywhere on the site',
  element: 'This element on every page',
  occurrence: 'This element on this page only',
};

/**
 * "Suppress…" on a finding: opens a small form in place to choose the scope the target allows and
 * give a reason (the audit trail), then POSTs a11y-suppressions. The score is recomputed by the API
 * at once; `onSuppressed` reloads what shows it and says what happened where the focus can land:
 * the form is gone, and so, often, is the finding it was opened from.
 */
export function SuppressButton({
  siteId,
  target,
  label,
  onSuppressed,
}: {
  siteId: string;
  target: SuppressTarget;
  /** Names the button for screen readers, e.g. "Suppress image-alt at img.logo". */
  label: string;
  onSuppressed: (message: string, options: { focus: boolean }) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  // Cancel gives focus back to the button that opened the form, not to the top of the page.
  const frame = useRef<HTMLSpanElement>(null);
  if (!open) {
    return (
      <span ref={frame}>
        <Button size="sm" variant="ghost" aria-label={label} onClick={() => setOpen(true)}>
          Suppress…
        </Button>
      </span>
    );
  }
  return (
    <SuppressForm
      siteId={siteId}
      target={target}
      onCancel={() => {
        setOpen(false);
        requestAnimationFrame(() => frame.current?.querySelector('button')?.focus());
      }}
      onDone={async (message) => {
        setOpen(false);
        await onSuppressed(message, { focus: true });
      }}
    />
  );
}

function SuppressForm({
  siteId,
  target,
  onCancel,
  onDone,
}: {
  siteId: string;
  target: SuppressTarget;
  onCancel: () => void;
  onDone: (message: string) => Promise<void>;
}) {
  const scopes: Scope[] = target.selector
    ? target.pageUrl
      ? ['occurrence', 'element', 'rule']
      : ['element', 'rule']
    : ['rule'];
  const [scope, setScope] = useState<Scope>(scopes[0]!);
  const [reason, setReason] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = useId();
  const form = useRef<HTMLFormElement>(null);
  // The form opens where the button was: its first control (the chosen scope, or the reason when
  // there is no choice) takes focus so keyboard users carry on there.
  useEffect(() => form.current?.querySelector<HTMLElement>('input:checked, textarea')?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await requestJson<A11ySuppressionResponse>(`/v1/sites/${siteId}/a11y-suppressions`, {
        body: {
          rule: target.rule,
          selector: scope === 'rule' ? null : target.selector,
          pageUrl: scope === 'occurrence' ? target.pageUrl : null,
          reason: reason.trim() || null,
        },
      });
      await onDone(
        `Suppressed ${target.rule}: ${scopeLabel[scope].toLowerCase()}. The score was recomputed.`,
      );
    } catch (e) {
      setError(failureMessage(e, 'Could not add the suppression.'));
      setPending(false);
    }
  }

  return (
    <form
      ref={form}
      onSubmit={submit}
      className="mt-2 w-full max-w-xl basis-full space-y-3 rounded-md border border-zinc-300 bg-zinc-50 p-3 text-left"
    >
      {scopes.length > 1 ? (
        <fieldset>
          <legend className="text-sm font-medium text-zinc-800">Suppress {target.rule}</legend>
          <div className="mt-2 space-y-1.5">
            {scopes.map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm text-zinc-800">
                <input
                  type="radio"
                  name={name}
                  value={value}
                  checked={scope === value}
                  onChange={() => setScope(value)}
                  className="size-4 accent-accent-600"
                />
                {scopeLabel[value]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        // A rule has one scope: said, not offered as a choice of one (a radio group of one option).
        <p className="text-sm text-zinc-800">
          <span className="font-medium">Suppress {target.rule}</span>: {scopeLabel[scope].toLowerCase()}.
        </p>
      )}
      <TextAreaField
        label="Reason"
        hint="Recorded with your name for the audit trail."
        rows={2}
        maxLength={1000}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="[&_textarea]:font-sans"
      />
      <EditorActions error={error} pending={pending} saveLabel="Suppress" onCancel={onCancel} />
    </form>
  );
}
