'use client';

import type { Site } from '@/components/api/types';
import { CheckboxField } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/surface';

/**
 * One checkbox per site of the organization, for choosing a subset (a key's scope, a member's
 * access). Goes inside the caller's fieldset, which names what the choice is for.
 */
export function SiteChecklist({
  sites,
  selected,
  onChange,
  emptyText,
}: {
  sites: Site[] | undefined;
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  emptyText: string;
}) {
  if (!sites) return <Skeleton className="mt-2 h-10 w-full" />;
  if (sites.length === 0) return <p className="mt-2 text-sm text-zinc-600">{emptyText}</p>;
  return (
    <div className="mt-2 grid gap-2 sm:grid-cols-2">
      {sites.map((site) => (
        <CheckboxField
          key={site.id}
          label={site.hostname}
          checked={selected.has(site.id)}
          onChange={(e) => {
            const next = new Set(selected);
            if (e.target.checked) next.add(site.id);
            else next.delete(site.id);
            onChange(next);
          }}
        />
      ))}
    </div>
  );
}
