'use client';

import { ErrorPanel } from '@/components/shell/error-panel';
import { StandalonePage } from '@/components/shell/standalone-page';

export default function RootError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <StandalonePage mainClassName="mx-auto w-full max-w-xl flex-1 px-4 pt-16">
      <ErrorPanel error={error} reset={reset} />
    </StandalonePage>
  );
}
