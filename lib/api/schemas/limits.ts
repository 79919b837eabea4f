import { z } from 'zod';
import { badRequest } from '@/lib/api/errors';
import type { LimitRequestView as LimitServiceView, OrgQuota as OrgQuotaResult } from '@/lib/limits/service';
import type { Holds, Same } from './common';

/** Extra sites are self-serve through overage billing now; this kind answers 400, not 422. */
export const RETIRED_LIMIT_KINDS = ['org_sites'] as const;
export const LIMIT_KINDS = ['user_orgs'] as const;
const MAX_REQUESTED_LIMIT = 1000;

const limitRequestFields = z.strictObject({
  kind: z
    .enum(LIMIT_KINDS, { error: `must be one of: ${LIMIT_KINDS.join(', ')}` })
    .describe('user_orgs: organizations your account may belong to (org_sites is retired: 400)'),
  requestedLimit: z
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_REQUESTED_LIMIT, `must be at most ${MAX_REQUESTED_LIMIT}`)
    .describe('the limit you ask for, above the current one'),
  reason: z
    .string('is required: say why you need the higher limit')
    .trim()
    .min(1, 'is required: say why you need the higher limit')
    .max(2000, 'must be at most 2000 characters')
    .describe('why you need it (1-2000 characters)'),
});

/**
 * The retired kind is refused before field validation, so `{kind: 'org_sites'}` alone gets the
 * answer that matters (400, "retired") rather than a 422 about a missing field. The pipeline maps
 * schema failures to 422, so the 400 is thrown as the ApiError it is.
 */
export const limitRequestBody = z.preprocess((input) => {
  const kind = typeof input === 'object' && input !== null ? (input as { kind?: unknown }).kind : undefined;
  if ((RETIRED_LIMIT_KINDS as readonly unknown[]).includes(kind)) {
    throw badRequest(
      `kind: ${String(kind)} is retired; extra sites are self-serve: turn on overage billing instead`,
    );
  }
  return input;
}, limitRequestFields);
export type LimitRequestInput = z.output<typeof limitRequestFields>;

export const limitRequestView = z
  .object({
    id: z.uuid().describe("the request's id"),
    kind: z.string().describe('the limit asked about'),
    status: z.enum(['pending', 'approved', 'denied']).describe('pending until decided'),
    currentLimit: z.int().describe('the limit when the request was made'),
    requestedLimit: z.int().describe('the limit asked for'),
    reason: z.string().describe('why, as written'),
    createdAt: z.int().describe('when it was made (epoch milliseconds)'),
    decidedAt: z.int().nullable().describe('when it was decided (epoch milliseconds); null while pending'),
  })
  .meta({ id: 'LimitRequest', description: 'A request for a higher limit' });
export type LimitRequestView = z.output<typeof limitRequestView>;

export const limitRequestResponse = z
  .object({ request: limitRequestView.describe('the request made') })
  .describe('The request, pending');

export const orgQuotaResponse = z
  .object({
    limit: z.int().describe('organizations this account may belong to'),
    used: z.int().describe('organizations this account belongs to now'),
    canCreate: z.boolean().describe('whether the account may create another organization'),
    latestRequest: limitRequestView
      .nullable()
      .describe("the account's newest organization-limit request, whatever its status; null: none"),
  })
  .meta({ id: 'OrgQuota', description: "The account's organization cap and its use" });
export type OrgQuota = z.output<typeof orgQuotaResponse>;

/** What the limits service answers is exactly these schemas' output: typecheck fails on drift. */
export type LimitServiceMatchesSchemas = [
  Holds<Same<LimitServiceView, LimitRequestView>>,
  Holds<Same<OrgQuotaResult, OrgQuota>>,
];
