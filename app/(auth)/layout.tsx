import type { ReactNode } from 'react';
import { Logo } from '@/components/brand';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="px-6 py-5">
        <Logo />
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-4 pt-12 pb-24 outline-none"
      >
        <div className="w-full max-w-sm">{children}</div>
      </main>
      <footer className="px-6 py-5 text-center text-xs text-zinc-600">
        Sitewatch watches links, accessibility, SEO, uptime and performance.
      </footer>
    </div>
  );
}
