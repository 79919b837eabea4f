'use client';

import { useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/surface';

/**
 * The one button of a page opened from a link in mail (confirm an address, unsubscribe): a POST to
 * the public route named by the link's token, then the outcome in place of the button. The page
 * itself only reads, so a scanner that prefetches the link does nothing.
 */
export function MailLinkAction({
  action,
  label,
  done,
}: {
  /** The public API path the button POSTs to, e.g. `/v1/confirm/<token>`. */
  action: string;
  label: string;
  /** What the page says once the POST succeeded. */
  done: string;
}) {
  const [state, setState] = useState<'idle' | 'pending' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);
  const result = useRef<HTMLDivElement>(null);

  async function submit() {
    setState('pending');
    setError(null);
    try {
      await requestJson(action, { method: 'POST' });
      setState('done');
      // The button is gone: the focus goes to what replaced it, which a screen reader then reads.
      requestAnimationFrame(() => result.current?.focus());
    } catch (e) {
      setError(failureMessage(e, 'That did not work. Try again in a moment.'));
      setState('idle');
    }
  }

  if (state === 'done') {
    return (
      <div ref={result} tabIndex={-1} className="outline-none">
        <Alert tone="success">{done}</Alert>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <Button variant="primary" pending={state === 'pending'} onClick={submit} className="w-full">
        {label}
      </Button>
      {error ? <Alert tone="danger">{error}</Alert> : null}
    </div>
  );
}
