import type { Metadata } from 'next';
import { Logo } from '@/components/brand';
import { ButtonLink } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="px-6 py-5">
        <Logo />
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-4 pt-20 outline-none"
      >
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
      </main>
    </div>
  );
}
