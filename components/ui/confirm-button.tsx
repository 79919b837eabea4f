'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from './button';

/**
 * A destructive row action that asks once more in place: the first press swaps in a danger button
 * (focused, so Enter confirms) and a "Keep" way back. When the question closes with the row still
 * there (kept, or the action failed), focus returns to the first button; when the row goes, the
 * caller says what happened where focus can land (see useAnnouncer).
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
}: {
  label: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) asked.current = true;
    else if (asked.current) {
      asked.current = false;
      first.current?.focus();
    }
  }, [confirming]);
  if (!confirming) {
    return (
      <Button ref={first} size="sm" variant="ghost" onClick={() => setConfirming(true)}>
        {label}
      </Button>
    );
  }
  return (
    <span className="inline-flex gap-2">
      <Button
        size="sm"
        variant="danger"
        autoFocus
        pending={pending}
        onClick={async () => {
          setPending(true);
          await onConfirm();
          setPending(false);
          setConfirming(false);
        }}
      >
        {confirmLabel}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
        Keep
      </Button>
    </span>
  );
}
