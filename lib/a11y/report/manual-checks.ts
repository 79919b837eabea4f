/**
 * Manual WCAG checks: a reviewer's own judgement of a criterion that axe cannot test. They overlay
 * the coverage matrix in the report and never change its statuses, the score or the verdict.
 */
import { isCurrentCriterion, WCAG_CRITERIA } from './wcag';

export const MANUAL_CHECK_STATUSES = ['verified', 'not_applicable', 'failed'] as const;
export type ManualCheckStatus = (typeof MANUAL_CHECK_STATUSES)[number];

export interface ManualCheck {
  status: ManualCheckStatus;
  note: string | null;
  by: string | null;
  at: number;
}

/** Longest note accepted: a reviewer's few sentences, bounded like a suppression's reason. */
export const MAX_MANUAL_CHECK_NOTE_LENGTH = 1000;

export type ManualCheckValidation =
  | { ok: true; value: { sc: string; status: ManualCheckStatus; note: string | null } }
  | { ok: false; field: 'body' | 'sc' | 'status' | 'note'; problem: string };

/**
 * Checks a `PUT a11y-manual-checks` body. `sc` must be a WCAG 2.2 criterion of the matrix (the
 * obsolete 4.1.1 is not in it, so a check on it would never show).
 */
export function validateManualCheck(body: unknown): ManualCheckValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, field: 'body', problem: 'must be a JSON object' };
  }
  const { sc, status, note } = body as Record<string, unknown>;
  if (sc === undefined || sc === null || sc === '') return { ok: false, field: 'sc', problem: 'is required' };
  if (typeof sc !== 'string' || !isCurrentCriterion(sc.trim())) {
    return { ok: false, field: 'sc', problem: 'is not a WCAG 2.2 success criterion' };
  }
  if (!MANUAL_CHECK_STATUSES.includes(status as ManualCheckStatus)) {
    return { ok: false, field: 'status', problem: `must be one of ${MANUAL_CHECK_STATUSES.join(', ')}` };
  }
  if (note !== undefined && note !== null && typeof note !== 'string') {
    return { ok: false, field: 'note', problem: 'must be a string or null' };
  }
  const trimmed = typeof note === 'string' ? note.trim() : '';
  if (trimmed.length > MAX_MANUAL_CHECK_NOTE_LENGTH) {
    return {
      ok: false,
      field: 'note',
      problem: `must be at most ${MAX_MANUAL_CHECK_NOTE_LENGTH} characters`,
    };
  }
  return {
    ok: true,
    value: { sc: sc.trim(), status: status as ManualCheckStatus, note: trimmed === '' ? null : trimmed },
  };
}

/**
 * The report's `manualChecks`: the checks on criteria of the matrix, keyed by criterion in document
 * order (a stored check on a criterion no longer in the matrix is left out, not shown as an error).
 */
export function manualChecksOverlay(checks: ReadonlyMap<string, ManualCheck>): Record<string, ManualCheck> {
  const overlay: Record<string, ManualCheck> = {};
  for (const criterion of WCAG_CRITERIA) {
    const check = checks.get(criterion.sc);
    if (check && !criterion.obsolete) overlay[criterion.sc] = check;
  }
  return overlay;
}
