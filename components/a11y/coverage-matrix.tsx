'use client';

import { type FormEvent, useMemo, useRef, useState } from 'react';
import { failureMessage, requestJson } from '@/components/api/client';
import type { A11yCriterion, A11yManualCheck, A11yReport } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { EditorActions, SelectField, TextField } from '@/components/ui/field';
import { Badge } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import type { FindingActions } from './rule-list';
import { recordedBy } from './who';

/**
 * A criterion's reading: 'Passes' only with a reviewer's verified check or complete automated
 * coverage; rules that ran without failing on part of a criterion say only that.
 */
const readingTone = {
  fails: 'danger',
  passes: 'success',
  'not-applicable': 'neutral',
  'no-automated-failures': 'info',
  untested: 'neutral',
} as const;
const readingLabel = {
  fails: 'Fails',
  passes: 'Passes',
  'not-applicable': 'Not applicable',
  'no-automated-failures': 'No automated failures',
  untested: 'Check by hand',
} as const;
/** Why it reads so, under the badge: where a pass or a failure comes from. */
function readingBasis(c: A11yCriterion, check: A11yManualCheck | undefined): string | null {
  if (c.reading === 'fails') return c.status === 'fail' ? 'confirmed by the scan' : 'by a manual check';
  if (c.reading === 'passes')
    return check?.status === 'verified' ? 'verified by hand' : 'every automated check ran and passed';
  if (c.reading === 'no-automated-failures') return 'automated checks cover part of it';
  return null;
}
const manualLabel = { verified: 'Verified', not_applicable: 'Not applicable', failed: 'Failed' } as const;
const manualTone = { verified: 'success', not_applicable: 'neutral', failed: 'danger' } as const;

type ReadingFilter = 'all' | A11yCriterion['reading'];
type LevelFilter = 'all' | 'A-AA' | A11yCriterion['level'];

/**
 * WCAG 2.2 coverage: principle, guideline, criterion with what it reads as (the automated status
 * with the reviewer's manual check over it, see lib/a11y/report/coverage.ts), and the manual check
 * recorded in place. The manual check never changes the automated status, score or verdict.
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
  const [reading, setReading] = useState<ReadingFilter>('all');
  const [level, setLevel] = useState<LevelFilter>('all');
  const { totals, readings } = report.coverage;
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
                  (reading === 'all' || c.reading === reading) &&
                  (level === 'all' || (level === 'A-AA' ? c.level !== 'AAA' : c.level === level)),
              ),
            }))
            .filter((g) => g.criteria.length > 0),
        }))
        .filter((p) => p.guidelines.length > 0),
    [report.coverage, reading, level],
  );
  const shown = principles.reduce((n, p) => n + p.guidelines.reduce((m, g) => m + g.criteria.length, 0), 0);

  return (
    <div className="space-y-4">
      <p className="flex flex-wrap gap-2 text-sm">
        <Badge tone="danger">{readings.fails} failing</Badge>
        <Badge tone="success">{readings.passes} passing</Badge>
        <Badge tone="info">{readings['no-automated-failures']} with no automated failures</Badge>
        {readings['not-applicable'] > 0 ? <Badge>{readings['not-applicable']} not applicable</Badge> : null}
        <Badge>{readings.untested} to check by hand</Badge>
        <span className="text-zinc-600">of {totals.total} WCAG 2.2 criteria</span>
      </p>
      <p className="max-w-3xl text-sm text-zinc-700">
        Automated checks test only part of most criteria, so a criterion they found no fault with reads
        &ldquo;No automated failures&rdquo;. It reads &ldquo;Passes&rdquo; once a reviewer records a verified
        manual check, or when every automated check for it ran and passed with nothing left to review or
        suppressed.
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label="Reads as"
          value={reading}
          onChange={(e) => setReading(e.target.value as ReadingFilter)}
        >
          <option value="all">Any</option>
          {Object.entries(readingLabel).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
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
                  <Th>Reads as</Th>
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
      <Td className="min-w-36">
        <Badge tone={readingTone[c.reading]}>{readingLabel[c.reading]}</Badge>
        {readingBasis(c, check) ? (
          <span className="mt-1 block text-xs text-zinc-600">{readingBasis(c, check)}</span>
        ) : null}
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
