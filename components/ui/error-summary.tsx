'use client';

import {
  type MouseEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/** One problem with one field: its text (naming the field) and the id of the control to go to. */
export type SummaryError = { fieldId: string; text: string };

/**
 * What a failed submit calls so that `focus` runs once the errors are rendered: a new attempt each
 * time, so the message is read out again even when the errors are the same as the last time.
 */
function useFocusAfterFailure(focus: (root: HTMLElement | null) => void) {
  const root = useRef<HTMLElement>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each attempt only
  useEffect(() => {
    if (attempt > 0) focus(root.current);
  }, [attempt]);
  const after = useCallback(() => setAttempt((n) => n + 1), []);
  return { root, after };
}

/** The summary's ref and what a failed submit calls so that the summary takes focus. */
export function useSummaryFocus() {
  const { root, after } = useFocusAfterFailure((summary) => summary?.focus());
  return { summary: root as RefObject<HTMLDivElement | null>, focusSummary: after };
}

/**
 * For a short form with no summary (one or two fields, errors under them): after a failed submit
 * the focus goes to the first field in error, whose message is read with it (aria-describedby).
 * Without it the focus stayed on the submit button and the message under the field was never
 * announced. A problem that is no field's is the form's `FormError`, announced as an alert.
 * Put `form` on the form element and call `focusError` after setting the errors.
 */
export function useFieldErrorFocus() {
  const { root, after } = useFocusAfterFailure((form) =>
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
  );
  return { form: root as RefObject<HTMLFormElement | null>, focusError: after };
}

/**
 * What stopped a form from saving, shown where the person is: the form focuses it after a failed
 * submit (through `ref`), so it is read out and scrolled into view whichever field, far up the form,
 * the problem is in. Each field's problem links to the field, which a click or Enter focuses; a
 * problem that is no field's goes in `children`. Nothing renders while there is no problem.
 */
export function ErrorSummary({
  ref,
  title,
  errors,
  children,
}: {
  ref?: Ref<HTMLDivElement>;
  title: string;
  errors: SummaryError[];
  children?: ReactNode;
}) {
  const titleId = useId();
  if (errors.length === 0 && !children) return null;

  const goTo = (fieldId: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    const field = document.getElementById(fieldId);
    if (!field) return;
    event.preventDefault();
    field.scrollIntoView({ block: 'center' });
    field.focus();
  };

  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      aria-labelledby={titleId}
      className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 outline-offset-2 focus-visible:outline-2 focus-visible:outline-red-700"
    >
      <h2 id={titleId} className="font-semibold">
        {title}
      </h2>
      {children ? <div className="mt-1">{children}</div> : null}
      {errors.length > 0 ? (
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {errors.map((error) => (
            <li key={error.fieldId}>
              <a href={`#${error.fieldId}`} onClick={goTo(error.fieldId)} className="font-medium underline">
                {error.text}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
