import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import { guardedLookup, isReachableAddress } from './address';
import { BlockedAddressError } from './errors';

/** Time allowed for TCP + TLS setup; the caller's overall deadline usually fires first. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Idle keep-alive sockets are kept this long, so a crawl reuses one connection per slot. */
const KEEP_ALIVE_MS = 10_000;

/**
 * node:net skips `lookup` for literal IPs, so a connector judges those itself before connecting:
 * the refusal to pass to its callback, or null.
 */
export function refusedLiteral(hostname: string): BlockedAddressError | null {
  return net.isIP(hostname) && !isReachableAddress(hostname)
    ? new BlockedAddressError(hostname, hostname)
    : null;
}

function guardedConnector(): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup, timeout: CONNECT_TIMEOUT_MS });
  return (options, callback) => {
    const refused = refusedLiteral(options.hostname);
    if (refused) {
      callback(refused, null);
      return;
    }
    connect(options, callback);
  };
}

function createAgent(allowPrivate: boolean): Agent {
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_MS,
    connect: allowPrivate ? { timeout: CONNECT_TIMEOUT_MS } : guardedConnector(),
  });
}

// One agent per policy for the whole process: pools (and their keep-alive sockets) are shared by
// every caller, which is what makes a crawl's thousands of requests cheap.
const agents: { guarded?: Agent; open?: Agent } = {};

export function dispatcherFor(allowPrivate: boolean): Agent {
  if (allowPrivate) {
    agents.open ??= createAgent(true);
    return agents.open;
  }
  agents.guarded ??= createAgent(false);
  return agents.guarded;
}

/** Closes the shared agents (tests, graceful shutdown). New requests create fresh ones. */
export async function closeDispatchers(): Promise<void> {
  const open = [agents.guarded, agents.open].filter((a): a is Agent => a !== undefined);
  agents.guarded = undefined;
  agents.open = undefined;
  await Promise.all(open.map((a) => a.close()));
}
