'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '@/components/ui/cx';

/** Sub-pages of a site, as a navigation bar styled like tabs (each is its own URL). */
export function SiteTabs({ siteId, showSettings }: { siteId: string; showSettings: boolean }) {
  const pathname = usePathname();
  const base = `/sites/${siteId}`;
  const tabs = [
    { href: base, label: 'Overview' },
    { href: `${base}/links`, label: 'Broken links' },
    { href: `${base}/seo`, label: 'SEO' },
    { href: `${base}/accessibility`, label: 'Accessibility' },
    ...(showSettings ? [{ href: `${base}/settings`, label: 'Settings' }] : []),
  ];
  return (
    <nav aria-label="Site sections" className="mb-6 border-b border-zinc-200">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {tabs.map((tab) => {
          const current = pathname === tab.href;
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                aria-current={current ? 'page' : undefined}
                className={cx(
                  'block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                  current
                    ? 'border-accent-600 text-zinc-900'
                    : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900',
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
