import { type ComponentProps, type ReactNode, useId } from 'react';
import { Button } from './button';
import { cx } from './cx';

const control =
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-500 disabled:bg-zinc-100';

function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}

/** `error` is text, or text with a link in it (a duplicate site's error links to that site). */
type FieldChrome = { label: ReactNode; hint?: ReactNode; error?: ReactNode; className?: string };

/** The control's id (given or generated) and the ids of the hint and error that describe it. */
function useFieldIds(id: string | undefined, hint: ReactNode, error?: ReactNode) {
  const auto = useId();
  const controlId = id ?? auto;
  return {
    controlId,
    hintId: hint ? `${controlId}-hint` : undefined,
    errorId: error ? `${controlId}-error` : undefined,
  };
}

function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-zinc-800">
      {children}
    </label>
  );
}

function FieldHint({ id, children }: { id: string | undefined; children: ReactNode }) {
  return children ? (
    <p id={id} className="text-xs text-zinc-600">
      {children}
    </p>
  ) : null;
}

type ControlProps = {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/**
 * Label above, control, then hint and error: the frame every text-like field shares. The control
 * gets its id, error styling and aria-describedby from here; `extraClass` adds to its classes.
 */
function StackedField({
  label,
  hint,
  error,
  className,
  id,
  extraClass,
  children,
}: FieldChrome & {
  id: string | undefined;
  extraClass?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const { controlId, hintId, errorId } = useFieldIds(id, hint, error);
  return (
    <div className={cx('space-y-1.5', className)}>
      <FieldLabel htmlFor={controlId}>{label}</FieldLabel>
      {children({
        id: controlId,
        className: cx(control, extraClass, error ? 'border-red-500' : 'border-zinc-300'),
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy(hintId, errorId),
      })}
      <FieldHint id={hintId}>{hint}</FieldHint>
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose hint and error are tied to it with aria-describedby. */
export function TextField({
  label,
  hint,
  error,
  className,
  id,
  ...input
}: FieldChrome & ComponentProps<'input'>) {
  return (
    <StackedField label={label} hint={hint} error={error} className={className} id={id}>
      {(props) => <input {...props} {...input} />}
    </StackedField>
  );
}

export function SelectField({
  label,
  hint,
  error,
  className,
  id,
  ...select
}: FieldChrome & ComponentProps<'select'>) {
  return (
    <StackedField label={label} hint={hint} error={error} className={className} id={id}>
      {(props) => <select {...props} {...select} />}
    </StackedField>
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
  return (
    <StackedField
      label={label}
      hint={hint}
      error={error}
      className={className}
      id={id}
      extraClass="font-mono"
    >
      {(props) => <textarea {...props} {...area} />}
    </StackedField>
  );
}

export function CheckboxField({
  label,
  hint,
  className,
  id,
  ...input
}: Omit<FieldChrome, 'error'> & Omit<ComponentProps<'input'>, 'type'>) {
  const { controlId, hintId } = useFieldIds(id, hint);
  return (
    <div className={cx('flex items-start gap-3', className)}>
      <input
        id={controlId}
        type="checkbox"
        className="mt-0.5 size-4 rounded border-zinc-400 accent-accent-600"
        aria-describedby={hintId}
        {...input}
      />
      <div>
        <FieldLabel htmlFor={controlId}>{label}</FieldLabel>
        <FieldHint id={hintId}>{hint}</FieldHint>
      </div>
    </div>
  );
}

/**
 * A form-level error, announced when it appears; renders nothing while there is none. `boxed`
 * frames it, for long forms where it must stand out from the fields around it.
 */
export function FormError({
  children,
  boxed,
  className,
}: {
  children: ReactNode;
  boxed?: boolean;
  className?: string;
}) {
  return children ? (
    <p
      role="alert"
      className={cx(
        boxed
          ? 'rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900'
          : 'text-sm font-medium text-red-700',
        className,
      )}
    >
      {children}
    </p>
  ) : null;
}

/** The submit button with the live region that confirms success beside it. */
export function SubmitWithStatus({
  pending,
  status,
  children,
}: {
  pending: boolean;
  status: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center gap-4">
      <Button type="submit" variant="primary" pending={pending}>
        {children}
      </Button>
      <p role="status" className="text-sm text-green-800">
        {status}
      </p>
    </div>
  );
}

/**
 * The foot of a small editor opened in place (a criterion's verdict, a suppression, a member's
 * access): its error, then save and cancel. Save submits the form around it, or calls `onSave`
 * where the editor is no form of its own.
 */
export function EditorActions({
  error,
  pending,
  saveLabel,
  onSave,
  onCancel,
}: {
  error: ReactNode;
  pending: boolean;
  saveLabel: string;
  onSave?: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <FormError>{error}</FormError>
      <div className="flex gap-2">
        <Button
          type={onSave ? 'button' : 'submit'}
          size="sm"
          variant="primary"
          pending={pending}
          onClick={onSave}
        >
          {saveLabel}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}
