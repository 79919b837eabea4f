import { z } from 'zod';
import { COVERAGE_READINGS } from '@/lib/a11y/report/coverage';
import { MANUAL_CHECK_STATUSES } from '@/lib/a11y/report/manual-checks';
import type { A11yReport, A11ySuppressionResource } from '@/lib/a11y/report/report';
import { notFound } from '@/lib/api/errors';
import { type Holds, pathId, type Same } from './common';
import { runSchema } from './resources';
import { siteIdParams } from './sites';

const count = z.int().min(0);
const impact = z.enum(['critical', 'serious', 'moderate', 'minor']);
const level = z.enum(['A', 'AA', 'AAA']);

/** Path `{id}` and `{suppressionId}`: a malformed suppression id is the same 404 as an unknown one. */
export const suppressionIdParams = siteIdParams.extend({
  suppressionId: pathId(() => notFound('suppression not found')).describe("the suppression's id"),
});

/**
 * Bodies are checked by the accessibility core (`validateSuppression`, `validateManualCheck`), which
 * names the field and the problem; these schemas document them and accept any JSON object.
 */
export const suppressionBody = z
  .looseObject({
    rule: z.unknown().optional().describe('required: an axe-core rule id'),
    selector: z.unknown().optional().describe('string; null or omitted = any element'),
    pageUrl: z
      .unknown()
      .optional()
      .describe('absolute http(s) URL; requires selector; null or omitted = any page'),
    reason: z.unknown().optional().describe('string or null: the audit trail'),
  })
  .describe('rule alone: site-wide; rule + selector: that element everywhere; + pageUrl: one occurrence');

export const manualCheckBody = z
  .looseObject({
    sc: z.unknown().optional().describe('required: a WCAG 2.2 success criterion, e.g. "1.4.3"'),
    status: z
      .unknown()
      .optional()
      .describe(`required: ${MANUAL_CHECK_STATUSES.join(', ')}`),
    note: z.unknown().optional().describe('string or null'),
  })
  .describe("A reviewer's verdict on one success criterion; replaces any earlier one");

const suppressionFields = {
  id: z.string().describe("the suppression's id"),
  tenant_id: z.string().describe('the owning organization'),
  site_id: z.string().describe('the site it applies to'),
  rule: z.string().describe('the axe-core rule suppressed'),
  selector: z.string().nullable().describe('the element suppressed; null = any element'),
  page_url: z.string().nullable().describe('the page it applies to; null = any page'),
  reason: z.string().nullable().describe('the audit trail'),
  created_by: z.string().nullable().describe('user id of a session, or "key:<key id>" for an API key'),
  created_at: z.int().describe('when it was created (epoch milliseconds)'),
};

export const suppressionSchema = z.object(suppressionFields).meta({
  id: 'A11ySuppression',
  description: 'A rule, element or occurrence left out of the accessibility report, score and verdict',
});

export const suppressionResponse = z
  .object({ suppression: suppressionSchema.describe('the suppression created') })
  .describe('The suppression created');
export const suppressionListResponse = z
  .object({ suppressions: z.array(suppressionSchema).describe('oldest first') })
  .describe("The site's suppressions");
export const okResponse = z.object({ ok: z.boolean().describe('true: recorded') }).describe('Recorded');
export const deletedResponse = z
  .object({ deleted: z.literal(true).describe('always true') })
  .describe('Deleted');

const findingSchema = z
  .object({
    id: z.string().describe("the finding's id"),
    run_id: z.string().describe('the run that found it'),
    tenant_id: z.string().describe('the owning organization'),
    page_url: z.string().describe('the page'),
    rule: z.string().describe('the axe-core rule id'),
    impact: impact.nullable().describe("axe's impact on this page"),
    wcag: z.string().nullable().describe('the WCAG success criteria the rule maps to'),
    help: z.string().describe("the rule's short description"),
    help_url: z.string().describe("the rule's documentation"),
    type: z
      .enum(['violation', 'incomplete'])
      .describe('violation: confirmed; incomplete: needs human review'),
    count: z.int().describe('elements matched on the page, after suppressions'),
    nodes: z.string().describe('JSON-encoded capped example elements (selector, snippet, summary)'),
    created_at: z.int().describe('when it was recorded (epoch milliseconds)'),
    standards: z
      .object({
        wcagLevel: level.nullable().describe('A, AA or AAA; null for best-practice rules'),
        en301549: z.boolean().describe('counts toward EN 301 549'),
        section508: z.boolean().describe('counts toward Section 508'),
      })
      .describe('the standards the rule counts toward'),
    sc: z
      .string()
      .nullable()
      .describe('the WCAG success criterion, e.g. "1.4.3"; null for best-practice rules'),
    principle: z
      .string()
      .nullable()
      .describe('Perceivable, Operable, Understandable or Robust; null for best-practice rules'),
  })
  .meta({ id: 'A11yFinding', description: 'One rule failing (or needing review) on one page' });

const tally = z
  .object({
    rules: count.describe('distinct rules with a confirmed violation that count toward the standard'),
    occurrences: count.describe('elements those rules matched'),
  })
  .describe('confirmed violations counting toward the standard');

const principleTally = z
  .object({
    violations: count.describe('confirmed (page, rule) violations of rules under the principle'),
    needsReview: count.describe('needs-review findings of rules under the principle'),
    pages: count.describe('pages with either'),
  })
  .describe('findings of rules filed under the principle');

export const a11yReportResponse = z
  .object({
    run: runSchema.describe('the latest run that scanned pages'),
    issues: z.array(findingSchema).describe('suppressed elements and excluded pages removed'),
    descriptions: z
      .record(z.string(), z.string().describe("the rule's one-line description"))
      .describe('rule id to one-line description'),
    w3cUrls: z
      .record(z.string(), z.string().describe("the URL of the W3C's explanation of the rule's criterion"))
      .describe("rule id to the W3C's explanation of its criterion"),
    gainByRule: z
      .record(z.string(), z.number().describe('score points'))
      .describe(
        'rule id to the score points fixing it everywhere would gain; empty when the run has no score',
      ),
    byPage: z
      .array(
        z
          .object({
            url: z.string().describe('the page'),
            score: z.int().describe("the page's score 0-100"),
            issues: count.describe('violations plus needs-review findings'),
            violations: count.describe('confirmed violations (one per rule)'),
            needsReview: count.describe('findings needing human review'),
          })
          .describe('one scanned page'),
      )
      .describe('scanned pages, worst first'),
    notScanned: z
      .array(
        z
          .object({
            url: z.string().describe('the page'),
            reason: z.string().describe('why it could not be scanned'),
          })
          .describe('one page not scanned'),
      )
      .describe(
        'pages of the run that could not be scanned (a hang, a crash, a refused or off-site redirect, an HTTP error), with the reason; excluded pages left out. Not in the specification.',
      ),
    coverage: z
      .object({
        totals: z
          .object({
            fail: count.describe('criteria with a confirmed violation'),
            pass: count.describe(
              'criteria with no automated failures: rules mapping to them ran and none failed (not a pass of the criterion; see reading)',
            ),
            manual: count.describe('criteria no rule could judge'),
            total: count.describe('WCAG 2.2 criteria (86)'),
          })
          .describe('criteria by status'),
        readings: z
          .object({
            fails: count.describe('criteria that read as failing'),
            passes: count.describe(
              'criteria that read as passing (manual check, or complete automated coverage)',
            ),
            'not-applicable': count.describe('criteria a manual check found not applicable'),
            'no-automated-failures': count.describe(
              'criteria with no automated failures on partial coverage',
            ),
            untested: count.describe('criteria no rule judged and nobody has checked'),
          })
          .describe('criteria by reading (what the dashboard counts). Not in the specification.'),
        principles: z
          .array(
            z
              .object({
                principle: z.string().describe('the WCAG principle'),
                guidelines: z
                  .array(
                    z
                      .object({
                        guideline: z.string().describe('the WCAG guideline'),
                        criteria: z
                          .array(
                            z
                              .object({
                                sc: z.string().describe('the success criterion, e.g. "1.4.3"'),
                                name: z.string().describe("the criterion's name"),
                                level: level.describe("the criterion's level"),
                                status: z
                                  .enum(['fail', 'pass', 'manual'])
                                  .describe(
                                    'fail: a confirmed violation; pass: no automated failures (rules mapping to it ran and none failed; not a pass of the criterion, see reading); manual: no rule could judge it',
                                  ),
                                automated: z
                                  .enum(['complete', 'partial', 'none'])
                                  .describe(
                                    'how much of the criterion the automated rules covered: complete when every rule the scan runs for it found something to check and passed, with no needs-review result and no suppressed violation; partial when some ran; none when none did. Not in the specification.',
                                  ),
                                reading: z
                                  .enum(COVERAGE_READINGS)
                                  .describe(
                                    'what the criterion reads as, the manual check laid over status: fails (a confirmed violation, or a manual check failed), passes (a manual check verified, or complete automated coverage), not-applicable (manual check), no-automated-failures (status pass on partial coverage), untested (status manual). Never changes status, score or verdict. Not in the specification.',
                                  ),
                                pages: count.describe(
                                  'pages failing it (fail) or where a rule passed (pass)',
                                ),
                                rules: z.array(z.string()).describe('the rules behind the status'),
                                w3cUrl: z.string().describe("the W3C's explanation"),
                              })
                              .describe('one success criterion'),
                          )
                          .describe("the guideline's criteria"),
                      })
                      .describe('one guideline'),
                  )
                  .describe("the principle's guidelines"),
              })
              .describe('one principle'),
          )
          .describe('every WCAG 2.2 criterion, by principle and guideline'),
      })
      .describe('what the scan says about every WCAG 2.2 criterion'),
    manualChecks: z
      .record(
        z.string(),
        z
          .object({
            status: z.enum(MANUAL_CHECK_STATUSES).describe("the reviewer's verdict"),
            note: z.string().nullable().describe("the reviewer's note"),
            by: z.string().nullable().describe('who set it'),
            at: z.int().describe('when it last changed (epoch milliseconds)'),
          })
          .meta({ id: 'A11yManualCheck', description: "A reviewer's manual check of one success criterion" }),
      )
      .describe('success criterion to manual check; overlays coverage, never changes score or verdict'),
    summary: z
      .object({
        score: z
          .int()
          .min(0)
          .max(100)
          .nullable()
          .describe('0-100, recomputed after suppressions; null when the run did not scan'),
        critical: count.describe('confirmed violations of critical impact'),
        serious: count.describe('confirmed violations of serious impact'),
        moderate: count.describe('confirmed violations of moderate impact'),
        minor: count.describe('confirmed violations of minor impact'),
        pagesScanned: count.describe('pages scanned, excluded pages left out'),
        verdict: z
          .object({
            compliant: z
              .boolean()
              .describe(
                'false when a confirmed violation of a level A or AA criterion exists, or nothing was scanned',
              ),
            targetLevel: z.literal('AA').describe('the level judged'),
            risk: z
              .string()
              .nullable()
              .describe('what breaks conformance, in plain words; null when compliant'),
          })
          .describe('the WCAG 2.2 AA verdict'),
        byPrinciple: z
          .object({
            Perceivable: principleTally,
            Operable: principleTally,
            Understandable: principleTally,
            Robust: principleTally,
          })
          .describe('tallies per WCAG principle (best-practice rules appear in none)'),
        resolvedSinceLastScan: count.describe(
          'confirmed (page, rule) violations of the previous scan gone in this one',
        ),
        compliance: z
          .object({ en301549: tally, section508: tally })
          .describe('tallies toward EN 301 549 and Section 508'),
      })
      .describe('the headline figures'),
    suppressions: z
      .array(
        z
          .object({
            ...suppressionFields,
            matchedCount: count.describe("how many of the run's findings it hides"),
          })
          .meta({
            id: 'A11yReportSuppression',
            description: 'A suppression with the number of findings it hides in this report',
          }),
      )
      .describe("the site's suppressions"),
  })
  .meta({
    id: 'A11yReport',
    description:
      "The accessibility report of the latest scan, with the site's current suppressions and excludePaths applied",
  });

export type A11ySchemasMatch = [
  Holds<Same<A11yReport, z.output<typeof a11yReportResponse>>>,
  Holds<Same<A11ySuppressionResource, z.output<typeof suppressionSchema>>>,
];
