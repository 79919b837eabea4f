'use client';

import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { Button } from './button';
import { FormError } from './field';

/**
 * A modal question before an action with consequences (money, for one): the browser's own modal
 * `<dialog>`, so the page behind is inert, Tab stays inside and Escape cancels. Focus starts on the
 * way back (Cancel), not on the action, so a stray Enter changes nothing; when the dialog closes,
 * confirmed or not, focus goes back to `returnFocus` (the control that opened it).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onCancel,
  returnFocus,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
      returnFocus.current?.focus();
    }
  }, [open, returnFocus]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // Escape: the browser closes the dialog; the state follows, and focus goes back.
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onCancel();
      }}
      className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-900/50"
    >
      <div className="space-y-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={bodyId} className="space-y-3 text-sm text-zinc-700">
          {children}
        </div>
        <FormError>{error}</FormError>
        <div className="flex flex-wrap justify-end gap-2">
          <Button ref={cancel} variant="secondary" onClick={pending ? undefined : onCancel}>
            Cancel
          </Button>
          <Button variant="primary" pending={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
