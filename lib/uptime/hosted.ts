import { randomUUID } from 'node:crypto';
import { httpRequest } from '@/lib/net';
import {
  MAX_BATCH_TARGETS,
  openBatch,
  type ProbeBatch,
  type ProbeBatchAnswer,
  readBatchAnswer,
} from './batch';
import { RETRY_DELAY_MS } from './probe';
import {
  EMBEDDED_CONCURRENCY,
  type EmbeddedProberOptions,
  embeddedProber,
  type RegionProber,
} from './regions';
import { SIGNATURE_HEADER, signBatch } from './signing';
import type { ProbeResult, ProbeTarget, Region } from './types';

/**
 * Both ends of the hosted layout (README.md, "Regions"), free of any HTTP framework: the
 * coordinator's `hostedProber` POSTs signed batches through lib/net, and a region's route handler
 * passes the raw body and signature header to `answerBatch` and sends back what it returns.
 */

export interface HostedProberOptions {
  /** The region's endpoint, e.g. `${APP_URL}/api/uptime/regions/eu`. */
  endpoint: string;
  secret: string;
  /** Targets per call (default MAX_BATCH_TARGETS). */
  maxBatch?: number;
  /** Reach loopback and private ranges (tests, development). Defaults to lib/net's setting. */
  allowPrivate?: boolean;
  /**
   * Vercel's Protection Bypass for Automation secret, sent as `x-vercel-protection-bypass`: a
   * protected deployment's edge turns away calls without it before the region sees the batch.
   */
  protectionBypass?: string;
}

/** The header Vercel's Deployment Protection lets automation through with. */
export const PROTECTION_BYPASS_HEADER = 'x-vercel-protection-bypass';

/**
 * A region reached over HTTP. Targets go out in batches of at most `maxBatch`, all at once; a
 * batch the region refuses or answers wrongly rejects the whole call, and `probeRound` then
 * leaves the region out of the round.
 */
export function hostedProber(region: Region, options: HostedProberOptions): RegionProber {
  const maxBatch = options.maxBatch ?? MAX_BATCH_TARGETS;
  return {
    region,
    async probe(targets) {
      const batches: ProbeBatch[] = [];
      for (let i = 0; i < targets.length; i += maxBatch) {
        batches.push({ round: randomUUID(), region, targets: targets.slice(i, i + maxBatch) });
      }
      const answers = await Promise.all(batches.map((batch) => send(batch, options)));
      return answers.flat();
    },
  };
}

async function send(batch: ProbeBatch, options: HostedProberOptions): Promise<ProbeResult[]> {
  const body = JSON.stringify(batch);
  const response = await httpRequest({
    url: options.endpoint,
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signBatch(options.secret, body, Date.now()),
      ...(options.protectionBypass ? { [PROTECTION_BYPASS_HEADER]: options.protectionBypass } : {}),
    },
    timeoutMs: batchDeadlineMs(batch.targets),
    onTooLarge: 'error',
    allowPrivate: options.allowPrivate,
  });
  if (response.status !== 200) {
    throw new Error(
      `region ${batch.region} answered HTTP ${response.status}: ${response.body.toString().slice(0, 200)}`,
    );
  }
  return readBatchAnswer(batch, JSON.parse(response.body.toString('utf8')));
}

/**
 * How long a region may take over a batch: every wave of EMBEDDED_CONCURRENCY probes may time
 * out, wait for its retry and time out again, plus 10 s for the call itself.
 */
export function batchDeadlineMs(targets: readonly ProbeTarget[]): number {
  const longest = Math.max(0, ...targets.map((t) => t.timeoutSeconds)) * 1000;
  const waves = Math.max(1, Math.ceil(targets.length / EMBEDDED_CONCURRENCY));
  return waves * (2 * longest + RETRY_DELAY_MS) + 10_000;
}

/**
 * The region side: the answer to send (`ok`), or why the call is refused (`refused`: the route
 * answers it as unauthorized, naming nothing more). Probes with the same code as the embedded
 * regions.
 */
export async function answerBatch(
  secret: string,
  region: Region,
  rawBody: string,
  signature: string | null | undefined,
  nowMs: number,
  probeOptions: Omit<EmbeddedProberOptions, 'fault'> = {},
): Promise<{ ok: true; answer: ProbeBatchAnswer } | { ok: false; reason: string }> {
  const opened = openBatch(secret, region, rawBody, signature, nowMs);
  if (!opened.ok) return opened;
  const { batch } = opened;
  const results = await embeddedProber(region, probeOptions).probe(batch.targets);
  return { ok: true, answer: { round: batch.round, region, results } };
}
