'use client';

import { type FormEvent, useMemo, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { A11yCriterion, A11yManualCheck, A11yReport } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { EditorActions, SelectField, TextField } from '@/components/ui/field';
import { formatDateTime, formatNumber } from '@/components/ui/format';
import { Badge } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import type { FindingActions } from './rule-list';
import { recordedBy } from './who';

const statusTone = { fail: 'danger', pass: 'success', manual: 'neutral' } as const;
const statusLabel = { fail: 'Fails', pass: 'Passes', manual: 'Manual' } as const;
const manualLabel = { verified: 'Verified', not_applicable: 'Not applicable', failed: 'Failed' } as const;
const manualTone = { verified: 'success', not_applicable: 'neutral', failed: 'danger' } as const;

type StatusFilter = 'all' | A11yCriterion['status'];
type LevelFilter = 'all' | 'A-AA' | A11yCriterion['level'];

/**
 * WCAG 2.2 coverage: principle, guideline, criterion with what the automated scan found (fail,
 * pass, or manual when no rule decides it), and a reviewer's manual check recorded in place. The
 * manual check overlays the matrix; it never changes the automated status, score or verdict.
 */
export function CoverageMatrix({
  report,
  actions,
  viewerId,
}: {
  report: A11yReport;
  actions: FindingActions;
  viewerId: string | undefined;
}) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [level, setLevel] = useState<LevelFilter>('all');
  const { totals } = report.coverage;
  const principles = useMemo(
    () =>
      report.coverage.principles
        .map((p) => ({
          ...p,
          guidelines: p.guidelines
            .map((g) => ({
              ...g,
              criteria: g.criteria.filter(
                (c) =>
                  (status === 'all' || c.status === status) &&
                  (level === 'all' || (level === 'A-AA' ? c.level !== 'AAA' : c.level === level)),
              ),
            }))
            .filter((g) => g.criteria.length > 0),
        }))
        .filter((p) => p.guidelines.length > 0),
    [report.coverage, status, level],
  );
  const shown = principles.reduce((n, p) => n + p.guidelines.reduce((m, g) => m + g.criteria.length, 0), 0);

  return (
    <div className="space-y-4">
      <p className="flex flex-wrap gap-2 text-sm">
        <Badge tone="danger">{totals.fail} failing</Badge>
        <Badge tone="success">{totals.pass} passing</Badge>
        <Badge>{totals.manual} to check by hand</Badge>
        <span className="text-zinc-600">of {totals.total} WCAG 2.2 criteria</span>
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => setStatus(e.target.value as StatusFilter)}
        >
          <option value="all">All statuses</option>
          <option value="fail">Fails</option>
          <option value="pass">Passes</option>
          <option value="manual">Manual</option>
        </SelectField>
        <SelectField label="Level" value={level} onChange={(e) => setLevel(e.target.value as LevelFilter)}>
          <option value="all">All levels</option>
          <option value="A-AA">A and AA (the target)</option>
          <option value="A">A</option>
          <option value="AA">AA</option>
          <option value="AAA">AAA</option>
        </SelectField>
      </div>
      <p role="status" className="text-sm text-zinc-700">
        {formatNumber(shown)} {shown === 1 ? 'criterion' : 'criteria'} shown.
      </p>
      {principles.map((p) => (
        <section key={p.principle} aria-label={`Principle: ${p.principle}`} className="space-y-3">
          <h4 className="text-sm font-semibold text-zinc-900">{p.principle}</h4>
          {p.guidelines.map((g) => (
            <Table key={g.guideline} caption={`Guideline ${g.guideline}`} showCaption>
              <thead>
                <tr>
                  <Th className="w-16">Criterion</Th>
                  <Th>Name</Th>
                  <Th>Level</Th>
                  <Th>Automated</Th>
                  <Th className="text-right">Pages</Th>
                  <Th>Rules</Th>
                  <Th>Manual check</Th>
                </tr>
              </thead>
              <tbody>
                {g.criteria.map((c) => (
                  <CriterionRow
                    key={c.sc}
                    criterion={c}
                    check={report.manualChecks[c.sc]}
                    actions={actions}
                    viewerId={viewerId}
                  />
                ))}
              </tbody>
            </Table>
          ))}
        </section>
      ))}
    </div>
  );
}

function CriterionRow({
  criterion: c,
  check,
  actions,
  viewerId,
}: {
  criterion: A11yCriterion;
  check: A11yManualCheck | undefined;
  actions: FindingActions;
  viewerId: string | undefined;
}) {
  const [editing, setEditing] = useState(false);
  // Closing the form (saved or cancelled) gives focus back to the cell's button, where it came from.
  const cell = useRef<HTMLDivElement>(null);
  const close = () => {
    setEditing(false);
    requestAnimationFrame(() => cell.current?.querySelector('button')?.focus());
  };
  return (
    <tr>
      <Td className="font-mono text-xs whitespace-nowrap">{c.sc}</Td>
      <Td className="min-w-40">
        <ExternalLink href={c.w3cUrl} className="text-accent-700 hover:underline">
          {c.name}
        </ExternalLink>
        <span className="sr-only"> (Understanding {c.sc})</span>
      </Td>
      <Td>{c.level}</Td>
      <Td>
        <Badge tone={statusTone[c.status]}>{statusLabel[c.status]}</Badge>
      </Td>
      <Td className="text-right tabular-nums">{c.pages > 0 ? formatNumber(c.pages) : '—'}</Td>
      <Td className="min-w-32 font-mono text-xs break-all">
        {c.rules.length > 0 ? c.rules.join(', ') : '—'}
      </Td>
      <Td className="min-w-56">
        <div ref={cell}>
          {editing ? (
            <ManualCheckForm
              sc={c.sc}
              check={check}
              siteId={actions.siteId}
              onCancel={close}
              onSaved={async (message) => {
                close();
                await actions.onChanged(message);
              }}
            />
          ) : (
            <div className="flex flex-wrap items-start justify-between gap-2">
              {check ? (
                <div className="min-w-0 text-xs text-zinc-700">
                  <Badge tone={manualTone[check.status]}>{manualLabel[check.status]}</Badge>
                  {check.note ? <p className="mt-1 break-words text-zinc-800">{check.note}</p> : null}
                  <p className="mt-1 text-zinc-600">
                    by {recordedBy(check.by, viewerId)}, {formatDateTime(check.at)}
                  </p>
                </div>
              ) : (
                <span className="text-xs text-zinc-600">Not checked</span>
              )}
              {actions.canManage ? (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`${check ? 'Edit' : 'Record'} manual check of ${c.sc}`}
                  onClick={() => setEditing(true)}
                >
                  {check ? 'Edit' : 'Record'}
                </Button>
              ) : null}
            </div>
          )}
        </div>
      </Td>
    </tr>
  );
}

function ManualCheckForm({
  sc,
  check,
  siteId,
  onCancel,
  onSaved,
}: {
  sc: string;
  check: A11yManualCheck | undefined;
  siteId: string;
  onCancel: () => void;
  onSaved: (message: string) => Promise<void>;
}) {
  const [status, setStatus] = useState<A11yManualCheck['status']>(check?.status ?? 'verified');
  const [note, setNote] = useState(check?.note ?? '');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await requestJson(`/v1/sites/${siteId}/a11y-manual-checks`, {
        method: 'PUT',
        body: { sc, status, note: note.trim() || null },
      });
      await onSaved(`Manual check of ${sc} recorded: ${manualLabel[status]}.`);
    } catch (e) {
      setError(failureMessage(e, 'Could not record the manual check.'));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-2">
      <SelectField
        label={`Manual check of ${sc}`}
        value={status}
        onChange={(e) => setStatus(e.target.value as A11yManualCheck['status'])}
        autoFocus
      >
        <option value="verified">Verified</option>
        <option value="not_applicable">Not applicable</option>
        <option value="failed">Failed</option>
      </SelectField>
      <TextField label="Note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
      <EditorActions error={error} pending={pending} saveLabel="Save" onCancel={onCancel} />
    </form>
  );
}
