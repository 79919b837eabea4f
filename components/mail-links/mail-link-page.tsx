import type { ReactNode } from 'react';
import { StandalonePage } from '@/components/shell/standalone-page';

/** The frame of a page opened from a link in mail: a heading, whom and what it is about, the action. */
export function MailLinkPage({
  title,
  email,
  organizationName,
  children,
}: {
  title: string;
  email?: string;
  organizationName?: string;
  children: ReactNode;
}) {
  return (
    <StandalonePage mainClassName="flex flex-1 justify-center px-4 pt-12 pb-24">
      <div className="w-full max-w-sm">
        <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {email && organizationName ? (
          <dl className="mt-4 space-y-2 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm shadow-xs">
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">Organization</dt>
              <dd className="min-w-0 break-words text-right font-medium text-zinc-900">{organizationName}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-zinc-600">Address</dt>
              <dd className="min-w-0 break-all text-right font-medium text-zinc-900">{email}</dd>
            </div>
          </dl>
        ) : null}
        <div className="mt-6">{children}</div>
      </div>
    </StandalonePage>
  );
}
