import type { ReactNode } from 'react';
import { StandalonePage } from '@/components/shell/standalone-page';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <StandalonePage
      mainClassName="flex flex-1 items-start justify-center px-4 pt-12 pb-24"
      footer={
        <footer className="px-6 py-5 text-center text-xs text-zinc-600">
          Sitewatch watches links, accessibility, SEO, uptime and performance.
        </footer>
      }
    >
      <div className="w-full max-w-sm">{children}</div>
    </StandalonePage>
  );
}
