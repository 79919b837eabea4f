import type { Metadata } from 'next';
import { StandalonePage } from '@/components/shell/standalone-page';
import { ButtonLink } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <StandalonePage mainClassName="flex flex-1 items-start justify-center px-4 pt-20">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-accent-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
        <p className="mt-2 text-sm text-zinc-600">
          The page does not exist, or it belongs to an organization you are not signed in to.
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <ButtonLink href="/sites" variant="primary">
            Go to sites
          </ButtonLink>
          <ButtonLink href="/sign-in">Sign in</ButtonLink>
        </div>
      </div>
    </StandalonePage>
  );
}
