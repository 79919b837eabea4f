'use client';

import { Logo } from '@/components/brand';
import { ErrorPanel } from '@/components/shell/error-panel';

export default function RootError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="px-6 py-5">
        <Logo />
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-xl flex-1 px-4 pt-16 outline-none">
        <ErrorPanel error={error} reset={reset} />
      </main>
    </div>
  );
}
