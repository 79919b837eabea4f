'use client';

import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import { useOrganizationSwitch } from '@/components/orgs/use-organization-switch';
import { cx } from '@/components/ui/cx';

type Org = { id: string; name: string };

/**
 * A disclosure listing the user's organizations. Choosing one makes it the session's active
 * organization (every /v1 call is scoped to it) and reloads the dashboard on the sites list.
 */
export function OrgSwitcher({ organizations, activeId }: { organizations: Org[]; activeId: string }) {
  const [open, setOpen] = useState(false);
  const { pendingId, error, switchTo: switchOrganization } = useOrganizationSwitch();
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const active = organizations.find((o) => o.id === activeId);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  async function switchTo(id: string) {
    if (id === activeId) {
      setOpen(false);
      return;
    }
    if (await switchOrganization(id)) setOpen(false);
  }

  return (
    <div ref={root} className="relative min-w-0 max-w-64">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex max-w-full items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-zinc-900 hover:bg-zinc-100"
      >
        <span className="sr-only">Organization: </span>
        <span className="truncate">{active?.name ?? 'Choose organization'}</span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 shrink-0 text-zinc-600"
          fill="currentColor"
        >
          <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
        </svg>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute left-0 z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-zinc-200 bg-white p-1 shadow-lg"
      >
        <p className="px-3 pt-2 pb-1 text-xs font-medium text-zinc-600">Switch organization</p>
        <ul>
          {organizations.map((org) => (
            <li key={org.id}>
              <button
                type="button"
                onClick={() => switchTo(org.id)}
                aria-current={org.id === activeId ? 'true' : undefined}
                disabled={pendingId !== null}
                className={cx(
                  'flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm hover:bg-zinc-100',
                  org.id === activeId ? 'font-semibold text-zinc-900' : 'text-zinc-800',
                )}
              >
                <span className="truncate">{org.name}</span>
                {org.id === activeId ? <span className="text-xs text-zinc-600">Current</span> : null}
                {pendingId === org.id ? <span className="text-xs text-zinc-600">Switching…</span> : null}
              </button>
            </li>
          ))}
        </ul>
        <div className="mt-1 border-t border-zinc-200 pt-1">
          <Link
            href="/organizations/new"
            onClick={() => setOpen(false)}
            className="block rounded-md px-3 py-2 text-sm text-accent-700 hover:bg-zinc-100"
          >
            Create organization
          </Link>
        </div>
        <p role="alert" className="px-3 text-xs text-red-700 empty:hidden">
          {error}
        </p>
      </div>
    </div>
  );
}
