'use client';

import { useEffect, useRef } from 'react';
import { callbackErrorText } from './words';

/**
 * How the Google sign-in ended (the callback's `?connected=1` or `?error=`), where the browser
 * lands back: announced and focused, so a screen reader hears it before the page around it.
 */
export function CallbackOutcome({
  outcome,
  accountEmail,
  choosing,
}: {
  outcome: { connected: true } | { error: string };
  accountEmail: string | null;
  /** The property is still to be chosen (the page's next step), not already chosen meanwhile. */
  choosing: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const ok = 'connected' in outcome;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={ok ? 'status' : 'alert'}
      className={
        ok
          ? 'rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900 outline-offset-2 focus-visible:outline-2 focus-visible:outline-green-700'
          : 'rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 outline-offset-2 focus-visible:outline-2 focus-visible:outline-red-700'
      }
    >
      <p className="font-semibold">{ok ? 'Google Search Console connected' : 'Not connected'}</p>
      <p className="mt-1">
        {ok
          ? `Connected${accountEmail ? ` as ${accountEmail}` : ''}.${choosing ? ' Choose the property this site reports below.' : ''}`
          : callbackErrorText(outcome.error)}
      </p>
    </div>
  );
}
