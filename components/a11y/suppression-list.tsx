'use client';

import { failureAnnouncement, requestJson } from '@/components/api/client';
import type { A11ySuppression } from '@/components/api/types';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { EmptyState } from '@/components/ui/surface';
import { ActionsTh, Table, Td, Th } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import type { FindingActions } from './rule-list';
import { recordedBy } from './who';

function scopeOf(s: A11ySuppression): string {
  if (s.selector === null) return 'Rule, site-wide';
  return s.page_url === null ? 'Element, every page' : 'Element on one page';
}

/** The site's suppressions: what each hides in the latest run, why, who and when, and an undo. */
export function SuppressionList({
  suppressions,
  actions,
  viewerId,
}: {
  suppressions: A11ySuppression[];
  actions: FindingActions;
  viewerId: string | undefined;
}) {
  if (suppressions.length === 0) {
    return (
      <EmptyState
        title="No suppressions"
        description={
          actions.canManage
            ? 'Suppress a finding you have reviewed and accepted with "Suppress…" on it; it is listed here with its reason and can be undone.'
            : 'Nothing has been suppressed on this site.'
        }
      />
    );
  }
  return (
    <Table caption="Suppressions, oldest first">
      <thead>
        <tr>
          <Th>Rule</Th>
          <Th>Scope</Th>
          <Th className="text-right">Hides</Th>
          <Th>Reason</Th>
          <Th>Added</Th>
          {actions.canManage ? <ActionsTh /> : null}
        </tr>
      </thead>
      <tbody>
        {suppressions.map((s) => (
          <tr key={s.id}>
            <Td className="font-mono text-xs whitespace-nowrap">{s.rule}</Td>
            <Td className="min-w-48">
              <p>{scopeOf(s)}</p>
              {s.selector !== null ? (
                <code className="mt-1 block font-mono text-xs break-all text-zinc-700">{s.selector}</code>
              ) : null}
              {s.page_url !== null ? (
                <p className="mt-1 text-xs break-all text-zinc-600">{s.page_url}</p>
              ) : null}
            </Td>
            <Td className="text-right whitespace-nowrap tabular-nums">
              {formatNumber(s.matchedCount)} {s.matchedCount === 1 ? 'finding' : 'findings'}
            </Td>
            <Td className="min-w-40">{s.reason ?? <span className="text-zinc-600">No reason given</span>}</Td>
            <Td className="text-xs whitespace-nowrap text-zinc-700">
              {formatDateTime(s.created_at)}
              <br />
              by {recordedBy(s.created_by, viewerId)}
            </Td>
            {actions.canManage ? (
              <Td className="text-right">
                <ConfirmButton
                  label={
                    <>
                      Undo<span className="sr-only"> suppression of {s.rule}</span>
                    </>
                  }
                  confirmLabel="Remove suppression"
                  onConfirm={async () => {
                    try {
                      await requestJson(`/v1/sites/${actions.siteId}/a11y-suppressions/${s.id}`, {
                        method: 'DELETE',
                      });
                      await actions.onChanged(
                        `Suppression of ${s.rule} removed; its findings count again and the score was recomputed.`,
                        // The row and this button are gone: the focus goes to the line saying so.
                        { focus: true },
                      );
                    } catch (e) {
                      // The row stays: ConfirmButton gives the focus back to its Undo.
                      await actions.onChanged(failureAnnouncement('Removing the suppression failed', e));
                    }
                  }}
                />
              </Td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
