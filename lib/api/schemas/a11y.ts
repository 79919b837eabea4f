import { z } from 'zod';
import { MANUAL_CHECK_STATUSES } from '@/lib/a11y/manual-checks';
import type { A11yReport, A11ySuppressionResource } from '@/lib/a11y/report';
import { notFound } from '@/lib/api/errors';
import { type Holds, pathId, type Same } from './common';
import { runSchema } from './resources';
import { siteIdParams } from './sites';

const count = z.int().min(0);
const impact = z.enum(['critical', 'serious', 'moderate', 'minor']);
const principle = z.enum(['Perceivable', 'Operable', 'Understandable', 'Robust']);
const level = z.enum(['A', 'AA', 'AAA']);

/** Path `{id}` and `{suppressionId}`: a malformed suppression id is the same 404 as an unknown one. */
export const suppressionIdParams = siteIdParams.extend({
  suppressionId: pathId(() => notFound('suppression not found')),
});

/**
 * Bodies are checked by the accessibility core (`validateSuppression`, `validateManualCheck`), which
 * names the field and the problem; these schemas document them and accept any JSON object.
 */
export const suppressionBody = z.looseObject({
  rule: z.unknown().optional().describe('required: an axe-core rule id'),
  selector: z.unknown().optional().describe('string; null or omitted = any element'),
  pageUrl: z
    .unknown()
    .optional()
    .describe('absolute http(s) URL; requires selector; null or omitted = any page'),
  reason: z.unknown().optional().describe('string or null: the audit trail'),
});

export const manualCheckBody = z.looseObject({
  sc: z.unknown().optional().describe('required: a WCAG 2.2 success criterion, e.g. "1.4.3"'),
  status: z
    .unknown()
    .optional()
    .describe(`required: ${MANUAL_CHECK_STATUSES.join(', ')}`),
  note: z.unknown().optional().describe('string or null'),
});

export const suppressionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  site_id: z.string(),
  rule: z.string(),
  selector: z.string().nullable(),
  page_url: z.string().nullable(),
  reason: z.string().nullable(),
  created_by: z.string().nullable().describe('user id of a session, or "key:<key id>" for an API key'),
  created_at: z.int(),
});

export const suppressionResponse = z.object({ suppression: suppressionSchema });
export const suppressionListResponse = z.object({ suppressions: z.array(suppressionSchema) });
export const okResponse = z.object({ ok: z.boolean() });
export const deletedResponse = z.object({ deleted: z.literal(true) });

const findingSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  tenant_id: z.string(),
  page_url: z.string(),
  rule: z.string(),
  impact: impact.nullable(),
  wcag: z.string().nullable(),
  help: z.string(),
  help_url: z.string(),
  type: z.enum(['violation', 'incomplete']),
  count: z.int(),
  nodes: z.string(),
  created_at: z.int(),
  standards: z.object({ wcagLevel: level.nullable(), en301549: z.boolean(), section508: z.boolean() }),
  sc: z.string().nullable(),
  principle: z.string().nullable(),
});

const tally = z.object({ rules: count, occurrences: count });

export const a11yReportResponse = z.object({
  run: runSchema,
  issues: z.array(findingSchema).describe('suppressed elements and excluded pages removed'),
  descriptions: z.record(z.string(), z.string()),
  w3cUrls: z.record(z.string(), z.string()),
  gainByRule: z.record(z.string(), z.number()),
  byPage: z.array(
    z.object({ url: z.string(), score: z.int(), issues: count, violations: count, needsReview: count }),
  ),
  notScanned: z
    .array(z.object({ url: z.string(), reason: z.string() }))
    .describe(
      'pages of the run that could not be scanned (a hang, a crash, a refused or off-site redirect, an HTTP error), with the reason; excluded pages left out. Not in the specification.',
    ),
  coverage: z.object({
    totals: z.object({ fail: count, pass: count, manual: count, total: count }),
    principles: z.array(
      z.object({
        principle: z.string(),
        guidelines: z.array(
          z.object({
            guideline: z.string(),
            criteria: z.array(
              z.object({
                sc: z.string(),
                name: z.string(),
                level,
                status: z.enum(['fail', 'pass', 'manual']),
                pages: count,
                rules: z.array(z.string()),
                w3cUrl: z.string(),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
  manualChecks: z.record(
    z.string(),
    z.object({
      status: z.enum(MANUAL_CHECK_STATUSES),
      note: z.string().nullable(),
      by: z.string().nullable(),
      at: z.int(),
    }),
  ),
  summary: z.object({
    score: z.int().min(0).max(100).nullable(),
    critical: count,
    serious: count,
    moderate: count,
    minor: count,
    pagesScanned: count,
    verdict: z.object({ compliant: z.boolean(), targetLevel: z.literal('AA'), risk: z.string().nullable() }),
    byPrinciple: z.record(principle, z.object({ violations: count, needsReview: count, pages: count })),
    resolvedSinceLastScan: count,
    compliance: z.object({ en301549: tally, section508: tally }),
  }),
  suppressions: z.array(suppressionSchema.extend({ matchedCount: count })),
});

export type A11ySchemasMatch = [
  Holds<Same<A11yReport, z.output<typeof a11yReportResponse>>>,
  Holds<Same<A11ySuppressionResource, z.output<typeof suppressionSchema>>>,
];
