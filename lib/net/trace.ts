import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { type buildConnector, Client } from 'undici';
import { guardedLookup } from './address';
import { CONNECT_TIMEOUT_MS, refusedLiteral } from './dispatcher';

/**
 * What one fresh connection went through, phase by phase, as its socket reported it. Filled in as
 * the events arrive, so a request that fails midway still shows the phases it finished. A phase is
 * null when it never happened (no DNS for an IP literal, no TLS over plain HTTP) or did not end.
 */
export interface ConnectionTrace {
  /** From the start to the socket's `lookup` event. */
  dnsMs: number | null;
  /** From the lookup (or the start, for an IP literal) to the socket's `connect` event. */
  connectMs: number | null;
  /** From `connect` to `secureConnect`. */
  tlsMs: number | null;
  /** From the connection being ready (the request is written at once) to the first response bytes. */
  firstByteMs: number | null;
  /** The server certificate's notAfter in ms since the epoch, read even when the certificate was refused. */
  certificateExpiresAt: number | null;
}

export function emptyTrace(): ConnectionTrace {
  return { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, certificateExpiresAt: null };
}

/** Phases are kept to a hundredth of a millisecond: finer is noise, coarser hides a fast LAN hop. */
const since = (from: number) => Math.round((performance.now() - from) * 100) / 100;

/**
 * A one-request undici Client on a connection of its own, whose socket events fill `trace`. Used
 * when a caller measures a connection (uptime probes) rather than reuses one (the crawler): the
 * shared keep-alive pools would hide DNS, connect and TLS behind an already open socket.
 *
 * The address checks are the shared connector's: `guardedLookup` for names, `refusedLiteral` for
 * IP literals, both skipped only when private targets are allowed.
 *
 * Certificates are verified exactly as node:tls verifies them (chain, dates, host name; node sets
 * `authorized` false for any of them), but the verdict is applied here, after `secureConnect` and
 * before undici gets the socket, rather than by node tearing the socket down during the
 * handshake: that way the expiry date of a refused certificate (expired, self-signed) is still
 * read, and no request byte is ever written to a server that failed verification.
 */
export function tracedClient(
  url: URL,
  allowPrivate: boolean,
  trace: ConnectionTrace,
): { client: Client; close(): void } {
  let socket: net.Socket | undefined;
  const connect: buildConnector.connector = (options, done) => {
    // Node may report an error after the socket was handed over; undici listens for that itself.
    let pending: buildConnector.Callback | null = done;
    const callback: buildConnector.Callback = (...args) => {
      const settle = pending;
      pending = null;
      settle?.(...args);
    };
    const refused = allowPrivate ? null : refusedLiteral(options.hostname);
    if (refused) {
      callback(refused, null);
      return;
    }
    const start = performance.now();
    let lookedUpAt: number | undefined;
    let connectedAt: number | undefined;
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    const lookup = allowPrivate ? dns.lookup : guardedLookup;
    const opened = https
      ? tls.connect({
          host: options.hostname,
          port,
          lookup,
          servername: options.servername || (net.isIP(options.hostname) ? undefined : options.hostname),
          ALPNProtocols: ['http/1.1'],
          // Verified below, before the socket is handed over (see the function's comment).
          rejectUnauthorized: false,
        })
      : net.connect({ host: options.hostname, port, lookup });
    socket = opened;
    opened.setNoDelay(true);
    opened.setTimeout(CONNECT_TIMEOUT_MS, () => opened.destroy(timeoutError(options.hostname)));
    opened.once('lookup', () => {
      lookedUpAt = performance.now();
      trace.dnsMs = since(start);
    });
    opened.once('connect', () => {
      connectedAt = performance.now();
      trace.connectMs = since(lookedUpAt ?? start);
    });
    const ready = () => {
      opened.setTimeout(0);
      const readyAt = performance.now();
      // Paused mode, as undici reads the socket: this listener sees data arrive, it takes none.
      opened.once('readable', () => {
        trace.firstByteMs = since(readyAt);
      });
      callback(null, opened);
    };
    opened.once('error', (err) => callback(err, null));
    if (opened instanceof tls.TLSSocket) {
      opened.once('secureConnect', () => {
        trace.tlsMs = since(connectedAt ?? start);
        const validTo = opened.getPeerCertificate().valid_to;
        const expiresAt = validTo ? Date.parse(validTo) : Number.NaN;
        trace.certificateExpiresAt = Number.isFinite(expiresAt) ? expiresAt : null;
        if (!opened.authorized) {
          const code = String(opened.authorizationError);
          const refusal = Object.assign(new Error(`certificate refused: ${code}`), { code });
          opened.destroy();
          callback(refusal, null);
          return;
        }
        ready();
      });
    } else {
      opened.once('connect', ready);
    }
  };
  const client = new Client(url.origin, { connect, pipelining: 1 });
  return {
    client,
    close() {
      // Destroying (not closing) stops a body mid-download: a probe needs the first byte only.
      client.destroy().catch(() => {});
      socket?.destroy();
    },
  };
}

function timeoutError(host: string): Error {
  return Object.assign(new Error(`timed out connecting to ${host}`), { code: 'UND_ERR_CONNECT_TIMEOUT' });
}
