'use client';

import { useEffect, useRef } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';

/** What a route segment shows when rendering failed: what happened, and two ways on. */
export function ErrorPanel({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-white px-6 py-10 text-center shadow-xs">
      <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold text-zinc-900 outline-none">
        Something went wrong
      </h1>
      <p className="mx-auto mt-2 max-w-md text-sm text-zinc-600">
        This page could not be loaded. Try again; if it keeps failing, the reference below helps support find
        the cause.
      </p>
      {error.digest ? (
        <p className="mt-2 font-mono text-xs text-zinc-600">Reference: {error.digest}</p>
      ) : null}
      <div className="mt-6 flex justify-center gap-3">
        <Button variant="primary" onClick={reset}>
          Try again
        </Button>
        <ButtonLink href="/sites">Go to sites</ButtonLink>
      </div>
    </div>
  );
}
