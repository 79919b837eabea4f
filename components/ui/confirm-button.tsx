'use client';

import { type ReactNode, useState } from 'react';
import { Button } from './button';

/**
 * A destructive row action that asks once more in place: the first press swaps in a danger button
 * (focused, so Enter confirms) and a "Keep" way back.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
}: {
  label: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  if (!confirming) {
    return (
      <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
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
