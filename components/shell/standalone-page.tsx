import type { ReactNode } from 'react';
import { Logo } from '@/components/brand';
import { cx } from '@/components/ui/cx';

/**
 * A page outside the dashboard chrome (sign-in, invitation, errors, the bot page): the logo on
 * top and a focusable `main#main` that the skip link and route changes land on.
 */
export function StandalonePage({
  mainClassName,
  footer,
  children,
}: {
  mainClassName: string;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="px-6 py-5">
        <Logo />
      </header>
      <main id="main" tabIndex={-1} className={cx(mainClassName, 'outline-none')}>
        {children}
      </main>
      {footer}
    </div>
  );
}
