import { probe } from './probe';
import { type ProbeResult, type ProbeTarget, REGIONS, type Region, type RegionResult } from './types';

/**
 * One probe region as the coordinator sees it. Batch-shaped because the hosted layout makes one
 * signed HTTP call per region per round (see README.md, "Regions"): a per-monitor call would be
 * four requests per monitor per minute, a batch is four per round. Results come back one per
 * target, in the order given, each already through its retry.
 *
 * Implementations: `embeddedProber` (in-process, the default runtime); later a hosted one that
 * POSTs the batch, signed with `signBatch`, to the region's route handler.
 */
export interface RegionProber {
  readonly region: Region;
  probe(targets: readonly ProbeTarget[]): Promise<ProbeResult[]>;
}

/**
 * A fault injected into a region (tests, drills): the reason this region cannot reach a target,
 * or null to probe it for real. The region then reports the target unreachable (`network`)
 * without touching the network, as a region cut off from the target would after its retry.
 */
export type RegionFault = (target: ProbeTarget) => string | null;

/** Every target unreachable from the region. */
export const cutOff: RegionFault = () => 'this region cannot reach the target (injected fault)';

export interface EmbeddedProberOptions {
  /** Delay before the one retry of a failed probe (default RETRY_DELAY_MS). */
  retryDelayMs?: number;
  /** Reach loopback and private ranges (tests, development). Defaults to lib/net's setting. */
  allowPrivate?: boolean;
  /** Probes of one batch in flight at once in this region. */
  concurrency?: number;
  fault?: RegionFault;
}

/**
 * Enough to keep a round of a thousand monitors well inside a minute when targets answer in a
 * second, and few enough sockets per region for a small machine.
 */
export const EMBEDDED_CONCURRENCY = 200;

/**
 * A region run in this process. Its label is its identity: embedded regions share the machine's
 * network, so they agree on a reachable target; what tells them apart in tests is a `fault`.
 */
export function embeddedProber(region: Region, options: EmbeddedProberOptions = {}): RegionProber {
  const { fault, concurrency = EMBEDDED_CONCURRENCY, ...probeOptions } = options;
  return {
    region,
    probe: (targets) =>
      mapConcurrently(targets, concurrency, async (target) => {
        const reason = fault?.(target) ?? null;
        return reason === null ? probe(target, probeOptions) : unreachableResult(reason);
      }),
  };
}

/** The four embedded regions, with faults for some of them if given. */
export function embeddedProbers(
  options: Omit<EmbeddedProberOptions, 'fault'> & { faults?: Partial<Record<Region, RegionFault>> } = {},
): RegionProber[] {
  const { faults = {}, ...shared } = options;
  return REGIONS.map((region) => embeddedProber(region, { ...shared, fault: faults[region] }));
}

/**
 * One round: every region probes every target at once. Per monitor, the regions that answered;
 * a region whose prober failed as a whole (a hosted region unreachable, a bad signature) is left
 * out of that round rather than counted as the target failing, so the consensus judges the target
 * and not the probing infrastructure.
 */
export async function probeRound(
  probers: readonly RegionProber[],
  targets: readonly ProbeTarget[],
): Promise<Map<string, RegionResult[]>> {
  const byMonitor = new Map<string, RegionResult[]>(targets.map((t) => [t.monitorId, []]));
  const answers = await Promise.allSettled(probers.map((prober) => prober.probe(targets)));
  answers.forEach((answer, i) => {
    const region = (probers[i] as RegionProber).region;
    if (answer.status !== 'fulfilled') return;
    answer.value.forEach((result, j) => {
      const target = targets[j];
      if (target) byMonitor.get(target.monitorId)?.push({ ...result, region });
    });
  });
  return byMonitor;
}

function unreachableResult(reason: string): ProbeResult {
  return {
    ok: false,
    status: null,
    totalMs: 0,
    phases: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null },
    tlsCertExpiresAt: null,
    cause: 'network',
    error: reason,
    checkedAt: Date.now(),
    attempts: 2,
  };
}

/** `fn` over `items` with at most `limit` calls in flight; results in the items' order. */
async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
