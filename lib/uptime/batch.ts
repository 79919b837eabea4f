import { z } from 'zod';
import { STATUS_ENTRY } from './expectations';
import {
  MAX_EXPECTED_STATUSES,
  MAX_KEYWORD_LENGTH,
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
} from './limits';
import { type Verdict, verifyBatch } from './signing';
import { CAUSES, type ProbeResult, type ProbeTarget, REGIONS, type Region } from './types';

/**
 * The wire format between the coordinator and a hosted probe region (README.md, "Regions"): the
 * body the coordinator signs and POSTs, and the answer it reads back. Both sides parse what they
 * receive, so a region never probes a malformed target and the coordinator never stores a
 * malformed result.
 */

/**
 * Targets per call. A batch must finish inside one function invocation: at the embedded
 * concurrency of 200, 500 targets are three waves of at most 65 s (timeout, retry delay,
 * timeout) in the worst case where every probe times out twice, under a 300 s function limit.
 */
export const MAX_BATCH_TARGETS = 500;

// Typed as the domain's own types, so the wire format and the domain cannot drift apart.
const probeTarget: z.ZodType<ProbeTarget> = z.object({
  monitorId: z.string().min(1).max(100),
  url: z.url({ protocol: /^https?$/ }),
  timeoutSeconds: z.int().min(MIN_TIMEOUT_SECONDS).max(MAX_TIMEOUT_SECONDS),
  expect: z
    .object({
      statuses: z.array(z.string().regex(STATUS_ENTRY)).max(MAX_EXPECTED_STATUSES),
      keyword: z.string().min(1).max(MAX_KEYWORD_LENGTH).nullable(),
      keywordAbsent: z.boolean(),
    })
    .optional(),
});

export const probeBatch = z.object({
  /** The coordinator's round id: results are kept once per (round, region). */
  round: z.string().min(1).max(100),
  /** The region the batch is for: a region refuses a batch signed for another. */
  region: z.enum(REGIONS),
  targets: z.array(probeTarget).max(MAX_BATCH_TARGETS),
});
export type ProbeBatch = z.infer<typeof probeBatch>;

const ms = z.number().nonnegative();
const probeResult: z.ZodType<ProbeResult> = z.object({
  ok: z.boolean(),
  status: z.int().min(100).max(999).nullable(),
  totalMs: ms,
  phases: z.object({
    dnsMs: ms.nullable(),
    connectMs: ms.nullable(),
    tlsMs: ms.nullable(),
    firstByteMs: ms.nullable(),
  }),
  tlsCertExpiresAt: z.int().nullable(),
  cause: z.enum(CAUSES).nullable(),
  error: z.string().max(2000).nullable(),
  checkedAt: z.int(),
  attempts: z.union([z.literal(1), z.literal(2)]),
});

export const probeBatchAnswer = z.object({
  round: z.string(),
  region: z.enum(REGIONS),
  results: z.array(probeResult),
});
export type ProbeBatchAnswer = z.infer<typeof probeBatchAnswer>;

/**
 * The region side: a batch it may probe, from the raw body and the signature header, or why not.
 * The signature is checked on the raw bytes before anything is parsed.
 */
export function openBatch(
  secret: string,
  region: Region,
  rawBody: string,
  signature: string | null | undefined,
  nowMs: number,
): { ok: true; batch: ProbeBatch } | Extract<Verdict, { ok: false }> {
  const verdict = verifyBatch(secret, rawBody, signature, nowMs);
  if (!verdict.ok) return verdict;
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const parsed = probeBatch.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'malformed batch' };
  if (parsed.data.region !== region)
    return { ok: false, reason: `batch is for region ${parsed.data.region}` };
  return { ok: true, batch: parsed.data };
}

/**
 * The coordinator side: a region's answer, checked to be for this round and region with one
 * result per target sent; anything else throws, and `probeRound` leaves the region out.
 */
export function readBatchAnswer(batch: ProbeBatch, answer: unknown): ProbeResult[] {
  const parsed = probeBatchAnswer.parse(answer);
  if (parsed.round !== batch.round || parsed.region !== batch.region) {
    throw new Error(
      `answer for ${parsed.region} round ${parsed.round}, expected ${batch.region} round ${batch.round}`,
    );
  }
  if (parsed.results.length !== batch.targets.length) {
    throw new Error(`${parsed.results.length} results for ${batch.targets.length} targets`);
  }
  return parsed.results;
}
