import { z } from 'zod';
import { badRequest } from '@/lib/api/errors';
import type { LimitRequestView as LimitServiceView, OrgQuota as OrgQuotaResult } from '@/lib/limits/service';
import type { Holds, Same } from './common';

/** Extra sites are self-serve through overage billing now; this kind answers 400, not 422. */
export const RETIRED_LIMIT_KINDS = ['org_sites'] as const;
export const LIMIT_KINDS = ['user_orgs'] as const;
const MAX_REQUESTED_LIMIT = 1000;

const limitRequestFields = z.strictObject({
  kind: z.enum(LIMIT_KINDS, { error: `must be one of: ${LIMIT_KINDS.join(', ')}` }),
  requestedLimit: z
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_REQUESTED_LIMIT, `must be at most ${MAX_REQUESTED_LIMIT}`),
  reason: z
    .string('is required: say why you need the higher limit')
    .trim()
    .min(1, 'is required: say why you need the higher limit')
    .max(2000, 'must be at most 2000 characters'),
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

export const limitRequestView = z.object({
  id: z.uuid(),
  kind: z.string(),
  status: z.enum(['pending', 'approved', 'denied']),
  currentLimit: z.int(),
  requestedLimit: z.int(),
  reason: z.string(),
  createdAt: z.int(),
  decidedAt: z.int().nullable(),
});
export type LimitRequestView = z.output<typeof limitRequestView>;

export const limitRequestResponse = z.object({ request: limitRequestView });

export const orgQuotaResponse = z.object({
  /** Organizations this account may belong to. */
  limit: z.int(),
  /** Organizations this account belongs to now. */
  used: z.int(),
  canCreate: z.boolean(),
  /** The account's newest organization-limit request, whatever its status. */
  latestRequest: limitRequestView.nullable(),
});
export type OrgQuota = z.output<typeof orgQuotaResponse>;

/** What the limits service answers is exactly these schemas' output: typecheck fails on drift. */
export type LimitServiceMatchesSchemas = [
  Holds<Same<LimitServiceView, LimitRequestView>>,
  Holds<Same<OrgQuotaResult, OrgQuota>>,
];
