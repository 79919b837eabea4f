'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { cx } from './cx';

export type Announcer = {
  text: string;
  ref: React.RefObject<HTMLParagraphElement | null>;
  /**
   * Says `text` in the status line. `focus`: also move the focus there, for an action whose control
   * is gone with its result (a revoked key's row, a removed member's): focus would otherwise drop to
   * the page's body and a keyboard user would have to start again from the top.
   */
  announce: (text: string, options?: { focus?: boolean }) => void;
};

/** A page's status line for the results of row actions: what `Announcement` shows. */
export function useAnnouncer(): Announcer {
  const ref = useRef<HTMLParagraphElement>(null);
  const [said, setSaid] = useState({ text: '', focus: false, count: 0 });
  useEffect(() => {
    if (said.focus) ref.current?.focus();
  }, [said]);
  const announce = useCallback(
    (text: string, options?: { focus?: boolean }) =>
      setSaid((prev) => ({ text, focus: options?.focus ?? false, count: prev.count + 1 })),
    [],
  );
  return { text: said.text, ref, announce };
}

/** The status line itself: announced politely, focusable from script only, hidden while empty. */
export function Announcement({ announcer, className }: { announcer: Announcer; className?: string }) {
  return (
    <p
      ref={announcer.ref}
      role="status"
      tabIndex={-1}
      className={cx(
        'rounded-md text-sm text-zinc-700 outline-offset-4 empty:hidden focus-visible:outline-2 focus-visible:outline-accent-600',
        className,
      )}
    >
      {announcer.text}
    </p>
  );
}

/**
 * Focuses the element matching `selector` that is shown (ResponsiveTable renders a row twice, once
 * hidden): how a closing panel gives focus back to the row button that opened it.
 */
export function focusShown(selector: string): void {
  const shown = [...document.querySelectorAll<HTMLElement>(selector)].find(
    (el) => el.getClientRects().length > 0,
  );
  shown?.focus();
}

/** The first control inside `root` that can take the focus (enabled, shown). */
function firstControl(root: HTMLElement | null): HTMLElement | undefined {
  if (!root) return undefined;
  return [
    ...root.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href], [tabindex="0"]'),
  ].find((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
}

/**
 * An editor opened in place of the button that opens it ("Add monitor", "Edit", "Set receivers"):
 * the button is gone while it is open and the editor is gone when it closes, so a focused control
 * vanishes each way and the focus would drop to the page's body. `openEditor` moves the focus to
 * the editor's first control; `closeEditor` gives it back to the opener, unless `returnFocus` is
 * false because the caller puts it on the result (a save's message, see useAnnouncer). Put
 * `editorRef` on the editor's container and `openerRef` on the opener's.
 */
export function useInPlaceEditor<
  Editor extends HTMLElement = HTMLDivElement,
  Opener extends HTMLElement = HTMLDivElement,
>() {
  const [open, setOpen] = useState(false);
  const editorRef = useRef<Editor>(null);
  const openerRef = useRef<Opener>(null);
  const focusNext = useRef<'editor' | 'opener' | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each opening and closing
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target) firstControl((target === 'editor' ? editorRef : openerRef).current)?.focus();
  }, [open]);
  const openEditor = useCallback(() => {
    focusNext.current = 'editor';
    setOpen(true);
  }, []);
  const closeEditor = useCallback((options?: { returnFocus?: boolean }) => {
    focusNext.current = (options?.returnFocus ?? true) ? 'opener' : null;
    setOpen(false);
  }, []);
  return { open, openEditor, closeEditor, editorRef, openerRef };
}
