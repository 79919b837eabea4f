'use client';

import { type FormEvent, useRef, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type {
  MonitorsResponse,
  SitesResponse,
  StatusPage,
  StatusPagesResponse,
  UptimeMonitor,
} from '@/components/api/types';
import { useApi, useRead } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { useFieldSubmit } from '@/components/api/use-field-submit';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { CheckboxField, FormError, TextField } from '@/components/ui/field';
import { ListView } from '@/components/ui/list-view';
import { Badge, EmptyState, PlainSection, Section, Skeleton } from '@/components/ui/surface';
import { PageIncidents } from './page-incidents';

/*
 * The organization's public status pages: the list (open, copy the badge snippet, edit, delete) and
 * one form that creates a page or edits the chosen one. The monitors to choose from are every
 * site's, read through the monitors endpoint of each site.
 */

type Field = 'slug' | 'title' | 'description' | 'monitorIds';
const FIELDS: readonly Field[] = ['slug', 'title', 'description', 'monitorIds'];
type MonitorChoice = UptimeMonitor & { hostname: string };

/** Every monitor of every site, grouped by site in the order the sites list gives. */
function useOrgMonitors(): { monitors: MonitorChoice[] | undefined; error: boolean } {
  const sites = useApi<SitesResponse>('/v1/sites');
  const list = sites.data?.sites;
  const monitors = useRead(list ? `monitors of ${list.map((site) => site.id).join(',')}` : null, async () =>
    (
      await Promise.all(
        (list ?? []).map((site) =>
          requestJson<MonitorsResponse>(`/v1/sites/${site.id}/uptime/monitors`).then((r) =>
            r.monitors.map((m) => ({ ...m, hostname: site.hostname })),
          ),
        ),
      )
    ).flat(),
  );
  return { monitors: monitors.data, error: monitors.error !== undefined || sites.error !== undefined };
}

/** What a page shows besides its monitors: the form's switches, each sent as it is named. */
type PageOptions = Pick<StatusPage, 'published' | 'showMonitorUrls' | 'showA11yScore' | 'showBrokenLinks'>;

const PAGE_OPTIONS: ReadonlyArray<{ key: keyof PageOptions; label: string; hint: string }> = [
  {
    key: 'published',
    label: 'Published',
    hint: 'Unticked, the address answers “not found” as if there were no page.',
  },
  {
    key: 'showMonitorUrls',
    label: 'Show monitor URLs',
    hint: "Off: visitors see each monitor's name only (or “Service 1” when it has none).",
  },
  {
    key: 'showA11yScore',
    label: 'Show accessibility scores',
    hint: "The latest accessibility score of each monitor's site.",
  },
  {
    key: 'showBrokenLinks',
    label: 'Show broken-link counts',
    hint: "Broken links found by each monitor's site's latest crawl.",
  },
];

/** A new page is published and shows names only; an edited one starts from what it has. */
const optionsOf = (page: StatusPage | null): PageOptions => ({
  published: page?.published ?? true,
  showMonitorUrls: page?.showMonitorUrls ?? false,
  showA11yScore: page?.showA11yScore ?? false,
  showBrokenLinks: page?.showBrokenLinks ?? false,
});

/** The snippet a site pastes to show the badge, linked to the page. */
/** "3 email subscribers": confirmed addresses only, counted, never listed. */
export function subscribersLine(count: number): string {
  return `${count.toLocaleString('en-US')} email subscriber${count === 1 ? '' : 's'}`;
}

export function embedSnippet(page: Pick<StatusPage, 'url' | 'badgeUrl' | 'title'>): string {
  const alt = `${page.title}: status`.replace(/"/g, '&quot;');
  return `<a href="${page.url}"><img src="${page.badgeUrl}" alt="${alt}"></a>`;
}

export function StatusPagesView() {
  const pages = useApi<StatusPagesResponse>('/v1/status-pages');
  const { monitors, error: monitorsError } = useOrgMonitors();
  const [editing, setEditing] = useState<StatusPage | null>(null);
  // A new key after each save: the form starts empty again rather than holding what was just saved.
  const [saves, setSaves] = useState(0);
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const attempt = useAttempt(announcer);

  const remove = (page: StatusPage) =>
    attempt('Delete failed', async () => {
      await requestJson(`/v1/status-pages/${page.id}`, { method: 'DELETE' });
      if (editing?.id === page.id) setEditing(null);
      announce(`Status page "${page.title}" deleted; /status/${page.slug} answers 404 now.`, { focus: true });
      await pages.mutate();
    });

  return (
    <div className="space-y-8">
      <Announcement announcer={announcer} />
      <PlainSection titleId="pages-title" title="Your status pages">
        <ListView
          items={pages.data?.statusPages}
          error={pages.error}
          failedTitle="Could not load status pages"
          loadingLabel="Loading status pages"
          empty={
            <EmptyState
              title="No status pages yet"
              description="A status page shows your customers whether your services are up, with 90 days of history and the incidents, at an address of your choosing."
              action={
                <Button variant="primary" onClick={() => document.getElementById('page-title')?.focus()}>
                  Create your first status page
                </Button>
              }
            />
          }
        >
          {(statusPages) => (
            <ul aria-label="Status pages" className="space-y-3">
              {statusPages.map((page) => (
                <PageCard
                  key={page.id}
                  page={page}
                  monitors={monitors}
                  onEdit={() => {
                    setEditing(page);
                    requestAnimationFrame(() => document.getElementById('page-title')?.focus());
                  }}
                  onDelete={() => remove(page)}
                />
              ))}
            </ul>
          )}
        </ListView>
      </PlainSection>

      <Section
        id="page-form"
        title={editing ? `Edit “${editing.title}”` : 'Create a status page'}
        description="Only what you choose is published: the monitors you tick, by name, and the options below. Nothing else of your organization."
      >
        <PageForm
          key={`${editing?.id ?? 'new'}-${saves}`}
          editing={editing}
          monitors={monitors}
          monitorsError={monitorsError}
          onCancel={() => setEditing(null)}
          onSaved={async (saved, created) => {
            setEditing(null);
            setSaves((n) => n + 1);
            await pages.mutate();
            announce(
              created
                ? `Status page "${saved.title}" published at ${saved.url}.`
                : `Status page "${saved.title}" saved.`,
              { focus: true },
            );
          }}
        />
      </Section>
    </div>
  );
}

function PageCard({
  page,
  monitors,
  onEdit,
  onDelete,
}: {
  page: StatusPage;
  monitors: MonitorChoice[] | undefined;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
}) {
  const [copied, setCopied] = useState(false);
  const [showIncidents, setShowIncidents] = useState(false);
  const snippetId = `snippet-${page.id}`;
  const names = page.monitorIds.map((id) => {
    const m = monitors?.find((x) => x.id === id);
    return m ? (m.name ?? m.url) : '…';
  });
  return (
    <li className="rounded-lg border border-zinc-200 bg-white px-5 py-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-zinc-900">{page.title}</h3>
          <p className="mt-0.5 break-all text-sm text-zinc-600">
            <a href={page.url} target="_blank" rel="noopener" className="text-accent-700 underline">
              {page.url}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </p>
          <p className="mt-1 text-sm text-zinc-700">
            {page.monitorIds.length} monitor{page.monitorIds.length === 1 ? '' : 's'}: {names.join(', ')}
          </p>
          <p className="mt-1 text-sm text-zinc-700">{subscribersLine(page.subscriberCount)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {page.published ? <Badge tone="success">Published</Badge> : <Badge>Hidden</Badge>}
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={showIncidents}
            aria-controls={`incidents-${page.id}`}
            onClick={() => setShowIncidents((open) => !open)}
          >
            Incidents<span className="sr-only"> of {page.title}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={onEdit}>
            Edit<span className="sr-only"> {page.title}</span>
          </Button>
          <ConfirmButton
            label={
              <>
                Delete<span className="sr-only"> {page.title}</span>
              </>
            }
            confirmLabel={
              <>
                Delete now<span className="sr-only"> {page.title}</span>
              </>
            }
            onConfirm={onDelete}
          />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={snippetId} className="block text-xs font-medium text-zinc-700">
            Badge embed snippet for {page.title}
          </label>
          <input
            id={snippetId}
            readOnly
            value={embedSnippet(page)}
            onFocus={(e) => e.target.select()}
            className="mt-1 block w-full rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-xs text-zinc-900"
          />
        </div>
        <Button
          size="sm"
          onClick={async () => {
            await navigator.clipboard.writeText(embedSnippet(page)).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy snippet'}
          <span className="sr-only"> for {page.title}</span>
        </Button>
      </div>
      <p role="status" className="sr-only">
        {copied ? 'Snippet copied to the clipboard.' : ''}
      </p>
      <div id={`incidents-${page.id}`}>{showIncidents ? <PageIncidents page={page} /> : null}</div>
    </li>
  );
}

/** A slug suggested from the title while the slug field is untouched: "Acme Cloud" -> "acme-cloud". */
function slugOf(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
}

function PageForm({
  editing,
  monitors,
  monitorsError,
  onCancel,
  onSaved,
}: {
  editing: StatusPage | null;
  monitors: MonitorChoice[] | undefined;
  monitorsError: boolean;
  onCancel: () => void;
  onSaved: (page: StatusPage, created: boolean) => Promise<void>;
}) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [slug, setSlug] = useState(editing?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(editing !== null);
  const [description, setDescription] = useState(editing?.description ?? '');
  const [chosen, setChosen] = useState<string[]>(editing?.monitorIds ?? []);
  const [options, setOptions] = useState<PageOptions>(() => optionsOf(editing));
  const monitorChoice = useRef<HTMLFieldSetElement>(null);
  const { errors, setErrors, pending, attempt } = useFieldSubmit({
    fields: FIELDS,
    fallback: 'Could not save the status page.',
    // The monitors are a group of checkboxes: its first one.
    focusField: (field) =>
      (field === 'monitorIds'
        ? monitorChoice.current?.querySelector('input')
        : document.getElementById(`page-${field}`)
      )?.focus(),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen.length === 0) {
      setErrors({ monitorIds: 'Choose at least one monitor to show.' });
      monitorChoice.current?.querySelector('input')?.focus();
      return;
    }
    const body = {
      title: title.trim(),
      slug,
      description: description.trim() || null,
      monitorIds: chosen,
      ...options,
    };
    await attempt(async () => {
      const result = editing
        ? await requestJson<{ statusPage: StatusPage }>(`/v1/status-pages/${editing.id}`, {
            method: 'PATCH',
            body,
          })
        : await requestJson<{ statusPage: StatusPage }>('/v1/status-pages', { body });
      await onSaved(result.statusPage, editing === null);
    });
  }

  const toggle = (id: string, on: boolean) =>
    setChosen((prev) => (on ? [...prev.filter((x) => x !== id), id] : prev.filter((x) => x !== id)));

  return (
    <form
      onSubmit={submit}
      aria-label={editing ? 'Edit status page' : 'New status page'}
      className="space-y-5"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="page-title"
          label="Title"
          required
          maxLength={100}
          placeholder="Acme status"
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            if (!slugTouched) setSlug(slugOf(e.target.value));
          }}
          error={errors.title}
        />
        <TextField
          id="page-slug"
          label="Address"
          required
          minLength={3}
          maxLength={63}
          hint={`/status/${slug || 'your-slug'}: lowercase letters, digits and hyphens`}
          value={slug}
          onChange={(e) => {
            setSlugTouched(true);
            setSlug(e.target.value);
          }}
          error={errors.slug}
        />
      </div>
      <TextField
        id="page-description"
        label="Description (optional)"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
      />
      <fieldset ref={monitorChoice} aria-describedby={errors.monitorIds ? 'page-monitors-error' : undefined}>
        <legend className="text-sm font-medium text-zinc-800">
          Monitors to show, in the order you tick them
        </legend>
        {monitorsError ? (
          <p className="mt-2 text-sm text-red-700">
            Could not load your monitors. Reload the page to try again.
          </p>
        ) : !monitors ? (
          <Skeleton className="mt-2 h-10 w-full" />
        ) : monitors.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-600">
            No uptime monitors yet: add one on a site's Uptime tab, then publish it here.
          </p>
        ) : (
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {monitors.map((m) => (
              <CheckboxField
                key={m.id}
                label={m.name ?? m.url}
                hint={m.name ? `${m.hostname}: ${m.url}` : m.hostname}
                checked={chosen.includes(m.id)}
                onChange={(e) => toggle(m.id, e.target.checked)}
              />
            ))}
          </div>
        )}
        {errors.monitorIds ? (
          <p id="page-monitors-error" className="mt-2 text-xs font-medium text-red-700">
            {errors.monitorIds}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-zinc-800">What the page shows</legend>
        {PAGE_OPTIONS.map((option) => (
          <CheckboxField
            key={option.key}
            label={option.label}
            hint={option.hint}
            checked={options[option.key]}
            onChange={(e) => {
              const on = e.target.checked;
              setOptions((o) => ({ ...o, [option.key]: on }));
            }}
          />
        ))}
      </fieldset>
      <p className="text-sm text-zinc-600">
        {editing ? `${subscribersLine(editing.subscriberCount)}. ` : ''}Visitors subscribe by email on the
        public page and confirm their address; you see how many, never who, and cannot add addresses for them.
      </p>
      <FormError>{errors.form}</FormError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" pending={pending}>
          {editing ? 'Save changes' : 'Publish status page'}
        </Button>
        {editing ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
