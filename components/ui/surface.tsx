import type { ReactNode } from 'react';
import { Button } from './button';
import { cx } from './cx';

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cx('rounded-lg border border-zinc-200 bg-white shadow-xs', className)}>{children}</div>
  );
}

/** A titled card section; `headingLevel` keeps the page outline correct where it is placed. */
export function Section({
  title,
  description,
  actions,
  children,
  headingLevel = 2,
  className,
  id,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3;
  className?: string;
  id?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      aria-labelledby={headingId}
      id={id}
      className={cx('rounded-lg border border-zinc-200 bg-white shadow-xs', className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4">
        <div>
          <Heading id={headingId} className="text-base font-semibold text-zinc-900">
            {title}
          </Heading>
          {description ? <p className="mt-1 text-sm text-zinc-600">{description}</p> : null}
        </div>
        {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
      </div>
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

/** A titled section without the card frame, for content that brings its own (tables, empty states). */
export function PlainSection({
  titleId,
  title,
  children,
}: {
  titleId: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className="mb-3 text-base font-semibold text-zinc-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description ? <p className="mt-1 text-sm text-zinc-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';
const badgeTones: Record<Tone, string> = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-300',
  success: 'bg-green-50 text-green-800 ring-green-300',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300',
  danger: 'bg-red-50 text-red-800 ring-red-300',
  info: 'bg-accent-50 text-accent-800 ring-accent-100',
};

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        badgeTones[tone],
      )}
    >
      {children}
    </span>
  );
}

const alertTones: Record<Exclude<Tone, 'neutral'>, string> = {
  success: 'border-green-300 bg-green-50 text-green-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  danger: 'border-red-300 bg-red-50 text-red-900',
  info: 'border-accent-100 bg-accent-50 text-accent-800',
};

/**
 * A message block. Errors are announced assertively (role=alert); everything else politely.
 * Render it inside an always-present live region (see LiveRegion) when it appears after an action.
 */
export function Alert({
  tone = 'info',
  title,
  children,
  className,
}: {
  tone?: Exclude<Tone, 'neutral'>;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      className={cx('rounded-md border px-4 py-3 text-sm', alertTones[tone], className)}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  );
}

export function EmptyState({
  title,
  description,
  action,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-10 text-center">
      <p className="text-base font-semibold text-zinc-900">{title}</p>
      {description ? <p className="mx-auto mt-1 max-w-md text-sm text-zinc-600">{description}</p> : null}
      {action ? <div className="mt-5 flex justify-center">{action}</div> : null}
    </div>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx('animate-pulse rounded-md bg-zinc-200', className)} />;
}

/**
 * Placeholder while something loads: the skeletons are what sighted users see, the status text
 * ("Loading keys…") is what assistive technology hears.
 */
export function Loading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <p role="status" className="sr-only">
        {label}…
      </p>
      {children}
    </div>
  );
}

/** Loading placeholder for a whole page. */
export function PageSkeleton({ label = 'Loading' }: { label?: string }) {
  return (
    <Loading label={label}>
      <Skeleton className="mb-2 h-8 w-48" />
      <Skeleton className="mb-8 h-4 w-80" />
      <div className="space-y-3">
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    </Loading>
  );
}

/** A failed load: the server's message, and a way to try again where reloading can help. */
export function LoadError({
  title,
  error,
  onRetry,
}: {
  title: ReactNode;
  error: { message: string };
  /** Reads again (a read's `mutate`). */
  onRetry?: () => unknown;
}) {
  return (
    <Alert tone="danger" title={title}>
      {onRetry ? (
        <>
          <p>{error.message}</p>
          <Button size="sm" className="mt-3" onClick={() => void onRetry()}>
            Try again
          </Button>
        </>
      ) : (
        error.message
      )}
    </Alert>
  );
}

export function Stat({ label, value, hint }: { label: ReactNode; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <dt className="text-xs font-medium tracking-wide text-zinc-600 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-zinc-600">{hint}</dd> : null}
    </div>
  );
}
