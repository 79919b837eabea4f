import { type ComponentProps, type ReactNode, useId } from 'react';
import { cx } from './cx';

const control =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-500 disabled:bg-zinc-100';

function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}

type FieldChrome = { label: ReactNode; hint?: ReactNode; error?: string | null; className?: string };

/** A labelled input whose hint and error are tied to it with aria-describedby. */
export function TextField({
  label,
  hint,
  error,
  className,
  id,
  ...input
}: FieldChrome & ComponentProps<'input'>) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={cx('space-y-1.5', className)}>
      <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <input
        id={inputId}
        className={cx(control, error ? 'border-red-500' : 'border-zinc-300')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId)}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  id,
  children,
  ...select
}: FieldChrome & ComponentProps<'select'>) {
  const auto = useId();
  const selectId = id ?? auto;
  const hintId = hint ? `${selectId}-hint` : undefined;
  const errorId = error ? `${selectId}-error` : undefined;
  return (
    <div className={cx('space-y-1.5', className)}>
      <label htmlFor={selectId} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <select
        id={selectId}
        className={cx(control, error ? 'border-red-500' : 'border-zinc-300')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId)}
        {...select}
      >
        {children}
      </select>
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function CheckboxField({
  label,
  hint,
  className,
  id,
  ...input
}: Omit<FieldChrome, 'error'> & Omit<ComponentProps<'input'>, 'type'>) {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={cx('flex items-start gap-3', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="mt-0.5 size-4 rounded border-zinc-400 accent-accent-600"
        aria-describedby={hintId}
        {...input}
      />
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="text-xs text-zinc-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  id,
  ...area
}: FieldChrome & ComponentProps<'textarea'>) {
  const auto = useId();
  const areaId = id ?? auto;
  const hintId = hint ? `${areaId}-hint` : undefined;
  const errorId = error ? `${areaId}-error` : undefined;
  return (
    <div className={cx('space-y-1.5', className)}>
      <label htmlFor={areaId} className="block text-sm font-medium text-zinc-800">
        {label}
      </label>
      <textarea
        id={areaId}
        className={cx(control, 'font-mono', error ? 'border-red-500' : 'border-zinc-300')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId)}
        {...area}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
