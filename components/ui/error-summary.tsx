'use client';

import {
  type MouseEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/** One problem with one field: its text (naming the field) and the id of the control to go to. */
export type SummaryError = { fieldId: string; text: string };

/**
 * The summary's ref and what a failed submit calls so that the summary takes focus: a new attempt
 * each time, so it is read out again even when the errors are the same as the last time.
 */
export function useSummaryFocus() {
  const summary = useRef<HTMLDivElement>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt > 0) summary.current?.focus();
  }, [attempt]);
  const focusSummary = useCallback(() => setAttempt((n) => n + 1), []);
  return { summary, focusSummary };
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
