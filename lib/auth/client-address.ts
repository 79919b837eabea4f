import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { BetterAuthOptions } from 'better-auth';
import { getIP } from 'better-auth/api';
import type { TrustedProxy } from '@/lib/config';

/*
 * Rate limits key on the client's address, so that address must be one the client cannot choose.
 * better-auth reads it from a header, and `next start` passes a client's own X-Forwarded-For through
 * untouched (it only fills the header in when absent). So the server's front door sets the header
 * itself, from the connection, before Next sees the request:
 *
 * - TRUSTED_PROXY unset (reached directly): X-Forwarded-For becomes the connection's address; whatever
 *   the client sent is dropped.
 * - a list of proxies: the connection's address is appended, as a proxy would. better-auth then walks
 *   the list from the right past the trusted proxies to the first address they vouch for; a client
 *   connecting around the proxy is keyed on its own connection, whatever it wrote in the header.
 * - `vercel`: Vercel's edge overwrites the headers and no client reaches this process directly;
 *   `x-vercel-forwarded-for` is read, the header Vercel documents as not overwritable by a proxy in front.
 */

const VERCEL_CLIENT_HEADER = 'x-vercel-forwarded-for';
const FORWARDED_FOR = 'x-forwarded-for';

/** better-auth's `advanced.ipAddress` for the setting. */
export function clientAddressOptions(
  proxy: TrustedProxy,
): NonNullable<NonNullable<BetterAuthOptions['advanced']>['ipAddress']> {
  switch (proxy.kind) {
    case 'none':
      return { ipAddressHeaders: [FORWARDED_FOR] };
    case 'vercel':
      return { ipAddressHeaders: [VERCEL_CLIENT_HEADER] };
    case 'addresses':
      return { ipAddressHeaders: [FORWARDED_FOR], trustedProxies: proxy.ranges };
  }
}

/**
 * The request's client address as better-auth's own limiter reads it (the same header, the same
 * trusted proxies, an IPv6 client as its /64 network), for the API's rate limits; null when no address
 * can be trusted. A request that carries none of the headers has none: better-auth would stand
 * 127.0.0.1 in for it in development and tests, which would put every such request in one bucket.
 */
export function clientAddress(headers: Headers, proxy: TrustedProxy): string | null {
  const ipAddress = clientAddressOptions(proxy);
  if (!ipAddress.ipAddressHeaders?.some((name) => headers.has(name))) return null;
  return getIP(headers, { advanced: { ipAddress } });
}

/**
 * The X-Forwarded-For the rest of the server sees, given what arrived and the connection's address.
 * Without a connection address (the socket already gone) nothing the client wrote is kept either.
 */
function forwardedFor(proxy: TrustedProxy, received: string | undefined, peer: string | undefined) {
  if (!peer) return undefined;
  if (proxy.kind === 'none' || !received) return peer;
  return `${received}, ${peer}`;
}

// Node publishes every request here before emitting it to the server's listener (Next's handler).
const requestStart = diagnostics.channel('http.server.request.start');

/**
 * Installs the front door for every HTTP server in this process; returns the uninstaller. Called at
 * boot, before the server answers its first request.
 */
export function installClientAddressFrontDoor(proxy: TrustedProxy): () => void {
  if (proxy.kind === 'vercel') return () => {};
  const onRequest = (message: unknown) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const received = request.headers[FORWARDED_FOR];
    const value = forwardedFor(
      proxy,
      Array.isArray(received) ? received.join(', ') : received,
      socket.remoteAddress,
    );
    if (value === undefined) delete request.headers[FORWARDED_FOR];
    else request.headers[FORWARDED_FOR] = value;
  };
  requestStart.subscribe(onRequest);
  return () => requestStart.unsubscribe(onRequest);
}
