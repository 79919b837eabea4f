import Link from 'next/link';
import type { ButtonHTMLAttributes, ComponentProps, Ref } from 'react';
import { cx } from './cx';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';
type Size = 'sm' | 'md';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60';
const variants: Record<Variant, string> = {
  primary: 'bg-accent-600 text-white shadow-sm hover:bg-accent-700',
  secondary: 'border border-zinc-300 bg-white text-zinc-900 shadow-sm hover:bg-zinc-50',
  danger: 'border border-red-300 bg-white text-red-700 shadow-sm hover:bg-red-50',
  ghost: 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
};
const sizes: Record<Size, string> = { sm: 'h-8 px-3 text-sm', md: 'h-9 px-4 text-sm' };

export function buttonClass(variant: Variant = 'secondary', size: Size = 'md', extra?: string): string {
  return cx(base, variants[variant], sizes[size], extra);
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  variant?: Variant;
  size?: Size;
  /**
   * Shows a busy state and blocks repeat presses while an action runs. The button stays focusable
   * (aria-disabled, not disabled): a focused button that turns disabled drops focus to the page's
   * body, and a keyboard user pressing "Save" would lose their place.
   */
  pending?: boolean;
};

export function Button({
  variant,
  size,
  pending,
  className,
  children,
  disabled,
  type,
  onClick,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={buttonClass(variant, size, cx(pending && 'cursor-wait opacity-60', className))}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      // A press while pending does nothing, including the form submission a submit button makes
      // (Enter in a field presses the default button the same way).
      onClick={pending ? (event) => event.preventDefault() : onClick}
      {...rest}
    >
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}

export function ButtonLink({
  variant,
  size,
  className,
  ...rest
}: ComponentProps<typeof Link> & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClass(variant, size, className)} {...rest} />;
}

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={cx('size-4 animate-spin', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
    >
      <circle cx="12" cy="12" r="9" className="opacity-25" />
      <path d="M21 12a9 9 0 0 0-9-9" strokeLinecap="round" />
    </svg>
  );
}
