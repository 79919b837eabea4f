'use client';

import { type FormEvent, useId, useState } from 'react';
import { requestJson } from '@/components/api/client';
import type { PageIncident, PageIncidentsResponse, StatusPage } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useFieldSubmit } from '@/components/api/use-field-submit';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { FormError, SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { Badge, LoadError, Loading, Skeleton } from '@/components/ui/surface';

/*
 * A status page's incidents in the dashboard (issue 26 item 2): what the public page shows (its
 * monitors' incidents and its manual ones, with the updates posted on it), a "Post update" form
 * on each, and "Open incident" for something no monitor sees. Posted through
 * /v1/status-pages/{id}/incidents; the public page shows a post within a second or so.
 */

type Status = NonNullable<PageIncident['status']>;
type Impact = NonNullable<PageIncident['impact']>;

const STATUS_WORDS: Record<Status, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};
const IMPACT_WORDS: Record<Impact, string> = {
  none: 'None (a notice; the headline stays)',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function PageIncidents({ page }: { page: StatusPage }) {
  const incidents = useApi<PageIncidentsResponse>(`/v1/status-pages/${page.id}/incidents`);
  const [opening, setOpening] = useState(false);
  const announcer = useAnnouncer();
  const headingId = useId();

  async function posted(text: string) {
    await incidents.mutate();
    announcer.announce(text, { focus: true });
  }

  return (
    <section aria-labelledby={headingId} className="mt-4 border-t border-zinc-200 pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="text-sm font-semibold text-zinc-900">
          Incidents on {page.title}
        </h4>
        {opening ? null : (
          <Button size="sm" onClick={() => setOpening(true)}>
            Open incident<span className="sr-only"> on {page.title}</span>
          </Button>
        )}
      </div>
      <Announcement announcer={announcer} className="mt-2" />
      {opening ? (
        <OpenIncidentForm
          page={page}
          onCancel={() => setOpening(false)}
          onOpened={async (incident) => {
            setOpening(false);
            await posted(`Incident “${incident.title}” opened on ${page.title}.`);
          }}
        />
      ) : null}
      {incidents.error ? (
        <LoadError title="Could not load the incidents" error={incidents.error} />
      ) : !incidents.data ? (
        <Loading label={`Loading the incidents of ${page.title}`}>
          <Skeleton className="mt-2 h-16 w-full" />
        </Loading>
      ) : incidents.data.incidents.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600">
          No incidents in the last 90 days. Outages of the listed monitors appear here by themselves.
        </p>
      ) : (
        <ul className="mt-2 space-y-3" aria-label={`Incidents on ${page.title}, newest first`}>
          {incidents.data.incidents.map((incident) => (
            <IncidentItem
              key={incident.id}
              page={page}
              incident={incident}
              onPosted={(status) =>
                posted(`Update posted on “${incident.title}”: ${STATUS_WORDS[status].toLowerCase()}.`)
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function IncidentItem({
  page,
  incident,
  onPosted,
}: {
  page: StatusPage;
  incident: PageIncident;
  onPosted: (status: Status) => Promise<void>;
}) {
  const [updating, setUpdating] = useState(false);
  const ongoing = incident.resolvedAt === null;
  return (
    <li className="rounded-md border border-zinc-200 px-4 py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h5 className="text-sm font-semibold text-zinc-900 break-words">{incident.title}</h5>
          <p className="mt-0.5 text-xs text-zinc-700">
            {incident.kind === 'manual' ? 'Opened on this page' : 'Seen by the monitor'} · started{' '}
            {when(incident.startedAt)}
            {incident.resolvedAt === null ? '' : ` · resolved ${when(incident.resolvedAt)}`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {ongoing ? <Badge tone="danger">Ongoing</Badge> : <Badge tone="success">Resolved</Badge>}
          {incident.status && incident.status !== 'resolved' ? (
            <Badge>{STATUS_WORDS[incident.status]}</Badge>
          ) : null}
          {updating ? null : (
            <Button size="sm" variant="ghost" onClick={() => setUpdating(true)}>
              Post update<span className="sr-only"> on {incident.title}</span>
            </Button>
          )}
        </div>
      </div>
      {incident.updates.length ? (
        <ol
          className="mt-2 space-y-1 border-l-2 border-zinc-200 pl-3 text-sm"
          aria-label="Updates, newest first"
        >
          {incident.updates.map((u) => (
            <li key={u.id}>
              <span className="font-medium text-zinc-900">{STATUS_WORDS[u.status]}</span>{' '}
              <span className="text-xs text-zinc-700">{when(u.createdAt)}</span>
              <p className="whitespace-pre-line break-words text-zinc-800">{u.message}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-xs text-zinc-700">
          No update posted yet: the page says only that it is ongoing.
        </p>
      )}
      {updating ? (
        <UpdateForm
          page={page}
          incident={incident}
          onCancel={() => setUpdating(false)}
          onPosted={async (status) => {
            setUpdating(false);
            await onPosted(status);
          }}
        />
      ) : null}
    </li>
  );
}

/** The message to visitors, the form's error and its two buttons: the end of both forms. */
function MessageAndActions({
  id,
  message,
  onMessage,
  errors,
  submitLabel,
  pending,
  onCancel,
}: {
  id: string;
  message: string;
  onMessage: (message: string) => void;
  errors: { message?: string; form?: string };
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <TextAreaField
        id={`${id}-message`}
        label="Message to visitors"
        required
        rows={3}
        maxLength={5000}
        value={message}
        onChange={(e) => onMessage(e.target.value)}
        error={errors.message}
        hint="Plain text; a blank line starts a new paragraph."
      />
      <FormError>{errors.form}</FormError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" size="sm" pending={pending}>
          {submitLabel}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}

/** The statuses an update may give: a monitor's ongoing incident resolves only by its recovery. */
function statusChoices(incident: PageIncident): Status[] {
  if (incident.resolvedAt !== null) return ['resolved'];
  const all: Status[] = ['investigating', 'identified', 'monitoring', 'resolved'];
  return incident.kind === 'monitor' ? all.filter((s) => s !== 'resolved') : all;
}

const UPDATE_FIELDS = ['status', 'message'] as const;

function UpdateForm({
  page,
  incident,
  onCancel,
  onPosted,
}: {
  page: StatusPage;
  incident: PageIncident;
  onCancel: () => void;
  onPosted: (status: Status) => Promise<void>;
}) {
  const choices = statusChoices(incident);
  const [status, setStatus] = useState<Status>(
    incident.status && choices.includes(incident.status) ? incident.status : choices[0]!,
  );
  const [message, setMessage] = useState('');
  const id = useId();
  const { errors, pending, attempt } = useFieldSubmit({
    fields: UPDATE_FIELDS,
    fallback: 'Could not post the update.',
    focusField: (field) => document.getElementById(`${id}-${field}`)?.focus(),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return attempt(async () => {
      await requestJson(`/v1/status-pages/${page.id}/incidents/${incident.id}/updates`, {
        body: { status, message },
      });
      await onPosted(status);
    });
  };

  return (
    <form onSubmit={submit} aria-label={`Post an update on ${incident.title}`} className="mt-3 space-y-3">
      <SelectField
        id={`${id}-status`}
        label="Status"
        value={status}
        onChange={(e) => setStatus(e.target.value as Status)}
        error={errors.status}
        hint={
          incident.kind === 'monitor' && incident.resolvedAt === null
            ? 'It resolves by itself when the monitor’s checks recover.'
            : undefined
        }
      >
        {choices.map((s) => (
          <option key={s} value={s}>
            {STATUS_WORDS[s]}
          </option>
        ))}
      </SelectField>
      <MessageAndActions
        id={id}
        message={message}
        onMessage={setMessage}
        errors={errors}
        submitLabel="Post update"
        pending={pending}
        onCancel={onCancel}
      />
    </form>
  );
}

const OPEN_FIELDS = ['title', 'impact', 'status', 'message'] as const;

function OpenIncidentForm({
  page,
  onCancel,
  onOpened,
}: {
  page: StatusPage;
  onCancel: () => void;
  onOpened: (incident: PageIncident) => Promise<void>;
}) {
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<Impact>('degraded');
  const [status, setStatus] = useState<Status>('investigating');
  const [message, setMessage] = useState('');
  const id = useId();
  const { errors, pending, attempt } = useFieldSubmit({
    fields: OPEN_FIELDS,
    fallback: 'Could not open the incident.',
    focusField: (field) => document.getElementById(`${id}-${field}`)?.focus(),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return attempt(async () => {
      const made = await requestJson<{ incident: PageIncident }>(`/v1/status-pages/${page.id}/incidents`, {
        body: { title: title.trim(), impact, status, message },
      });
      await onOpened(made.incident);
    });
  };

  return (
    <form
      onSubmit={submit}
      aria-label={`Open an incident on ${page.title}`}
      className="mt-3 space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-4"
    >
      <p className="text-sm text-zinc-700">
        For something no monitor sees. Visitors see the title, the impact and your message at once.
      </p>
      <TextField
        id={`${id}-title`}
        label="Title"
        required
        maxLength={200}
        placeholder="Email delivery delayed"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={errors.title}
        autoFocus
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          id={`${id}-impact`}
          label="Impact"
          value={impact}
          onChange={(e) => setImpact(e.target.value as Impact)}
          error={errors.impact}
          hint="While open, the page's headline is at least this."
        >
          {(Object.keys(IMPACT_WORDS) as Impact[]).map((i) => (
            <option key={i} value={i}>
              {IMPACT_WORDS[i]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id={`${id}-status`}
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as Status)}
          error={errors.status}
        >
          {(Object.keys(STATUS_WORDS) as Status[]).map((s) => (
            <option key={s} value={s}>
              {STATUS_WORDS[s]}
            </option>
          ))}
        </SelectField>
      </div>
      <MessageAndActions
        id={id}
        message={message}
        onMessage={setMessage}
        errors={errors}
        submitLabel="Open incident"
        pending={pending}
        onCancel={onCancel}
      />
    </form>
  );
}
